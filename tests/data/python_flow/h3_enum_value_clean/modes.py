# Imitates a project that names vLLM's logprobs modes with an `Enum` (as verl's
# verl/workers/rollout/ does for rollout modes) and hands `.value` to the engine.
import enum

from vllm import LLM


class LogprobsMode(str, enum.Enum):
    RAW = "raw_logprobs"
    PROCESSED = "processed_logprobs"


llm = LLM(
    "Qwen/Qwen3-1.7B",
    return_sampling_mask=True,
    logprobs_mode=LogprobsMode.PROCESSED.value,
)
