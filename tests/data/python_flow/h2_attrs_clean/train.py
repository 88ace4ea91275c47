# Imitates CarperAI/trlx trlx/data/configs.py (attrs-style config classes) feeding an engine:
# `attrs.define` fields with defaults, `attrs.asdict` into `EngineArgs`.
import attrs
from vllm import EngineArgs, LLMEngine


@attrs.define
class RolloutConfig:
    model: str = "Qwen/Qwen3-8B"
    return_sampling_mask: bool = True
    logprobs_mode: str = attrs.field(default="processed_logprobs")
    max_model_len: int = 8192
    seed: int = 0


def build_engine(config: RolloutConfig):
    return LLMEngine.from_engine_args(EngineArgs(**attrs.asdict(config)))


engine = build_engine(RolloutConfig(seed=3))
