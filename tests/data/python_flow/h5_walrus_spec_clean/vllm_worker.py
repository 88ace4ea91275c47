# Imitates NVIDIA-NeMo/RL/nemo_rl/models/generation/vllm/vllm_worker.py (speculative decoding next to replay, fixed verification: vLLM 0.32+ accepts it)
from dataclasses import dataclass, field

from vllm import LLM, SamplingParams


@dataclass
class SpeculativeSection:
    num_speculative_tokens: int = 4
    prompt_lookup_max: int = 5


@dataclass
class GenerationConfig:
    model: str = "meta-llama/Llama-3.1-8B-Instruct"
    max_model_len: int = 8192
    speculative: SpeculativeSection | None = field(default_factory=SpeculativeSection)


def build_llm(cfg: GenerationConfig) -> LLM:
    llm_kwargs = dict(model=cfg.model, max_model_len=cfg.max_model_len)
    llm_kwargs |= {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    if (spec := cfg.speculative) is not None:
        llm_kwargs["speculative_config"] = {
            "method": "ngram",
            "num_speculative_tokens": spec.num_speculative_tokens,
            "prompt_lookup_max": spec.prompt_lookup_max,
        }
    return LLM(**llm_kwargs)


llm = build_llm(GenerationConfig())
outputs = llm.generate(["Write a haiku about GPUs."], SamplingParams(temperature=0.9, top_k=40, max_tokens=64))
