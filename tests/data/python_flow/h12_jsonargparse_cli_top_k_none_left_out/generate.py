# Imitates Lightning-AI/litgpt litgpt/generate/base.py (`def main(...)` whose keyword defaults are
# the command line through jsonargparse's `CLI(main)`; `top_k: int | None`, None meaning "no
# top-k"), generating with a vLLM replay engine: top_k is passed only when it is set.
from typing import Optional

from jsonargparse import CLI
from vllm import LLM, SamplingParams


def main(
    prompt: str = "What food do llamas eat?",
    *,
    num_samples: int = 1,
    max_new_tokens: int = 512,
    top_k: Optional[int] = None,
    top_p: float = 1.0,
    temperature: float = 0.8,
    checkpoint_dir: str = "meta-llama/Llama-3.2-3B-Instruct",
) -> None:
    llm = LLM(model=checkpoint_dir, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    extra = {"top_k": top_k} if top_k is not None else {}
    params = SamplingParams(  # expect: RPL102
        n=num_samples,
        max_tokens=max_new_tokens,
        temperature=temperature,
        top_p=top_p,
        **extra,
    )
    for out in llm.generate([prompt], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    CLI(main)
