# Imitates inclusionAI/AReaL areal/api/cli_args.py: engine settings in a pydantic v2 model, a
# variant made with model_copy(update=...) and handed to the engine with model_dump().
from pydantic import BaseModel

from vllm import LLM


class VllmSettings(BaseModel):
    model: str = "Qwen/Qwen3-1.7B"
    tensor_parallel_size: int = 2
    return_sampling_mask: bool = False
    logprobs_mode: str = "processed_logprobs"
    enable_batch_sharded_sampling: bool | None = None


DEFAULT_SETTINGS = VllmSettings()


def replay_settings() -> VllmSettings:
    return DEFAULT_SETTINGS.model_copy(
        update={
            "return_sampling_mask": True,
            "enable_batch_sharded_sampling": True,  # expect: RPL006
        }
    )


llm = LLM(**replay_settings().model_dump())
