# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/inference_engines/vllm/vllm_engine.py (engine kwargs from a generator config)
from dataclasses import dataclass, field

from vllm import LLM, SamplingParams


@dataclass
class GeneratorConfig:
    model: str = "Qwen/Qwen2.5-7B-Instruct"
    max_new_tokens: int = 1024
    engine_kwargs: dict = field(
        default_factory=lambda: {
            "tensor_parallel_size": 2,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            "enable_batch_sharded_sampling": True,  # expect: RPL006
        }
    )


def make_engine(cfg: GeneratorConfig) -> LLM:
    return LLM(model=cfg.model, **cfg.engine_kwargs)


def sample(engine: LLM, prompts: list[str], cfg: GeneratorConfig):
    params = SamplingParams(temperature=1.0, top_k=100, max_tokens=cfg.max_new_tokens)
    return engine.generate(prompts, params)


if __name__ == "__main__":
    cfg = GeneratorConfig()
    print(sample(make_engine(cfg), ["Write a haiku about GPUs."], cfg))
