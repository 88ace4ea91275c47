# Imitates bigcode-project/selfcodealign evaluation/text2code_vllm.py: a frozen dataclass parsed
# by HfArgumentParser (the sampling defaults are its fields), LLM(tokenizer=..., model=...) and
# SamplingParams(n=..., temperature=args.temperature, top_k=..., top_p=args.top_p). The user
# turned replay on.
from dataclasses import dataclass, field
from typing import Literal, cast

from transformers import HfArgumentParser
from vllm import LLM, SamplingParams


@dataclass(frozen=True)
class Args:
    model_key: str
    dataset: Literal["humaneval", "mbpp"]
    save_path: str
    n_samples_per_problem: int = field(default=1)
    max_new_tokens: int = field(default=1024)
    top_p: float = field(default=1.0)
    temperature: float = field(default=0.0)  # expect: RPL101
    model_name_or_path: str | None = None


def main():
    args = cast(Args, HfArgumentParser(Args).parse_args_into_dataclasses()[0])
    engine = LLM(
        tokenizer=args.model_key,
        model=args.model_name_or_path or args.model_key,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    stop = "\n```\n"
    sampling_params = SamplingParams(
        n=args.n_samples_per_problem,
        temperature=args.temperature,
        max_tokens=args.max_new_tokens,
        top_k=40,
        top_p=args.top_p,
        stop=stop,
    )
    prompts = ["Write a Python function to reverse a string."]
    responses = engine.generate(prompts, sampling_params)
    print([output.text for response in responses for output in response.outputs])


if __name__ == "__main__":
    main()
