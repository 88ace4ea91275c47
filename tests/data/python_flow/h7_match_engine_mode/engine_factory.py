# Imitates rllm-org/rllm rllm/engine/rollout/rollout_engine.py (engine kwargs chosen per mode with a match
# statement on a module constant).
from vllm import LLM

ROLLOUT_MODE = "replay"


def engine_kwargs(mode: str) -> dict:
    match mode:
        case "replay":
            extra = {"return_sampling_mask": True}  # expect: RPL003
        case "eval":
            extra = {"enforce_eager": True}
        case _:
            extra = {}
    return {"model": "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "max_model_len": 16384, **extra}


llm = LLM(**engine_kwargs(ROLLOUT_MODE))
