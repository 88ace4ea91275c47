# Imitates NVIDIA-NeMo/RL/nemo_rl/models/generation/vllm/vllm_worker.py (speculative decoding added to llm_kwargs when the config has a section for it)
from dataclasses import dataclass, field

from vllm import LLM


@dataclass
class SpeculativeSection:
    num_speculative_tokens: int = 4
    prompt_lookup_max: int = 5
    adaptive: bool = True  # expect: RPL002


@dataclass
class GenerationConfig:
    model: str = "meta-llama/Llama-3.1-8B-Instruct"
    max_model_len: int = 8192
    speculative: SpeculativeSection | None = field(default_factory=SpeculativeSection)


def build_llm(cfg: GenerationConfig) -> LLM:
    llm_kwargs = dict(
        model=cfg.model,
        max_model_len=cfg.max_model_len,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    if (spec := cfg.speculative) is not None:
        llm_kwargs["speculative_config"] = {
            "method": "ngram",
            "num_speculative_tokens": spec.num_speculative_tokens,
            "prompt_lookup_max": spec.prompt_lookup_max,
            "enable_adaptive_verification": spec.adaptive,
        }
    return LLM(**llm_kwargs)


llm = build_llm(GenerationConfig())
