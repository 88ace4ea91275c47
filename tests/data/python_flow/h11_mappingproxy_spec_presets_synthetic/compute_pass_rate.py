# Imitates huggingface/open-r1 scripts/pass_rate_filtering/compute_pass_rate.py (script arguments dataclass, LLM built in main)
from dataclasses import dataclass
from types import MappingProxyType

from datasets import load_dataset
from transformers import HfArgumentParser
from vllm import LLM, SamplingParams

# read-only presets for speculative decoding of the rollouts
SPEC_PRESETS = MappingProxyType(
    {
        "none": None,
        "ngram-standard": {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4},
        "ngram-synthetic": {
            "method": "ngram",
            "num_speculative_tokens": 4,
            "prompt_lookup_max": 4,
            "rejection_sample_method": "synthetic",  # expect: RPL306
            "synthetic_acceptance_length": 2.5,
        },
    }
)


@dataclass
class PassRateScriptArguments:
    model_name_or_path: str = "Qwen/Qwen2.5-Math-7B"
    dataset_name: str = "open-r1/OpenR1-Math-220k"
    dataset_split: str = "train"
    num_generations: int = 8
    temperature: float = 0.7
    top_k: int = 20
    max_completion_length: int = 2048
    spec_preset: str = "ngram-synthetic"
    pass_rate_min: float = 0.1
    pass_rate_max: float = 0.9


def main(script_args: PassRateScriptArguments) -> None:
    dataset = load_dataset(script_args.dataset_name, split=script_args.dataset_split)
    llm = LLM(
        model=script_args.model_name_or_path,
        trust_remote_code=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        speculative_config=SPEC_PRESETS[script_args.spec_preset],
    )
    sampling_params = SamplingParams(
        temperature=script_args.temperature,
        top_k=script_args.top_k,
        n=script_args.num_generations,
        max_tokens=script_args.max_completion_length,
    )
    outputs = llm.generate(dataset["problem"], sampling_params=sampling_params, use_tqdm=False)
    print(len(outputs))


if __name__ == "__main__":
    (args,) = HfArgumentParser(PassRateScriptArguments).parse_args_into_dataclasses()
    main(args)
