# Imitates inclusionAI/AReaL/areal/engine/vllm_local.py (an engine built from a config dataclass)
from dataclasses import dataclass

from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


@dataclass
class RolloutConfig:
    model: str = "Qwen/Qwen2.5-1.5B-Instruct"
    max_model_len: int = 8192
    replay: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003
    gpu_memory_utilization: float = 0.8


class LocalVLLMEngine:
    def __init__(self, engine_args: AsyncEngineArgs):
        self.engine = AsyncLLM.from_engine_args(engine_args)

    @classmethod
    def from_config(cls, cfg: RolloutConfig) -> "LocalVLLMEngine":
        engine_args = AsyncEngineArgs(
            model=cfg.model,
            max_model_len=cfg.max_model_len,
            gpu_memory_utilization=cfg.gpu_memory_utilization,
            return_sampling_mask=cfg.replay,
            logprobs_mode=cfg.logprobs_mode,
        )
        return cls(engine_args)


def main():
    cfg = RolloutConfig(max_model_len=16384)
    engine = LocalVLLMEngine.from_config(cfg)
    return engine


if __name__ == "__main__":
    main()
