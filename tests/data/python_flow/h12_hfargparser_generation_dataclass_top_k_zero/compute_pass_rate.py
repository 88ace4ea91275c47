# Imitates huggingface/open-r1 scripts/pass_rate_filtering/compute_pass_rate.py (dataclasses
# parsed together, `LLM(model=model_args.model_name_or_path, ...)`, one module-level
# `SamplingParams(temperature=..., top_p=..., top_k=..., n=...)` from the parsed generation
# arguments), with transformers' HfArgumentParser in place of TrlParser and the replay engine.
from dataclasses import dataclass, field
from typing import Optional

from transformers import HfArgumentParser
from vllm import LLM, SamplingParams


@dataclass
class PassRateScriptArguments:
    dataset_name: str = field(default="open-r1/OpenR1-Math-220k")
    dataset_split: str = "train"
    pass_rate_min: float = 0.1
    pass_rate_max: float = 0.9
    output_dataset_name: Optional[str] = None


@dataclass
class GenerationArguments:
    model_name_or_path: str = field(default="deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B")
    temperature: float = field(default=0.7, metadata={"help": "Sampling temperature."})
    top_p: float = field(default=0.95, metadata={"help": "Nucleus sampling."})
    top_k: int = field(default=0, metadata={"help": "Top-k sampling; 0 disables it."})  # expect: RPL102
    num_generations: int = field(default=16)
    max_completion_length: int = field(default=4096)


def main(script_args: PassRateScriptArguments, gen_args: GenerationArguments):
    llm = LLM(
        model=gen_args.model_name_or_path,
        trust_remote_code=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(
        temperature=gen_args.temperature,
        top_p=gen_args.top_p,
        top_k=gen_args.top_k,
        n=gen_args.num_generations,
        max_tokens=gen_args.max_completion_length,
    )
    prompts = [f"Problem {i}: solve it." for i in range(8)]
    outputs = llm.generate(prompts, sampling_params=sampling_params, use_tqdm=False)
    print(script_args.dataset_name, len(outputs))


if __name__ == "__main__":
    parser = HfArgumentParser((PassRateScriptArguments, GenerationArguments))
    script_args, gen_args = parser.parse_args_into_dataclasses()
    main(script_args, gen_args)
