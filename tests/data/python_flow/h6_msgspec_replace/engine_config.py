# Imitates the msgspec frozen Structs of vllm-project/vllm/vllm/v1/engine/__init__.py, used here as a
# rollout project's engine configuration (replaced field by field with msgspec.structs.replace)
import msgspec


class EngineConfig(msgspec.Struct, frozen=True, kw_only=True):
    model: str
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
    max_model_len: int = 8192
    logits_processors: list[str] = msgspec.field(default_factory=list)


BASE = EngineConfig(model="Qwen/Qwen3-4B")
