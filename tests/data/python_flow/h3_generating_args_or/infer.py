# Imitates hiyouga/LLaMA-Factory scripts/vllm_infer.py and src/llamafactory/hparams/generating_args.py:
# `top_k=generating_args.top_k or -1` with a dataclass default.
from dataclasses import dataclass

from vllm import LLM, SamplingParams


@dataclass
class GeneratingArguments:
    temperature: float = 0.95
    top_p: float = 0.7
    top_k: int = 0
    max_new_tokens: int = 1024


def infer(prompts):
    generating_args = GeneratingArguments()
    llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    sampling_params = SamplingParams(
        temperature=generating_args.temperature,
        top_p=generating_args.top_p or 1.0,
        top_k=generating_args.top_k or -1,  # expect: RPL102
        max_tokens=generating_args.max_new_tokens,
    )
    return llm.generate(prompts, sampling_params)


infer(["Hello"])
