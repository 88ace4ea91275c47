# Imitates OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`create_vllm_engines`): the helper's
# replay branch would add the mask, but the tree's only call passes `replay=False`, so the
# engine never gets it (the logits processors are fine without replay).
from vllm import LLM


def engine_kwargs(model, replay):
    if replay:
        return {"model": model, "return_sampling_mask": True}
    return {"model": model, "enforce_eager": True}


llm = LLM(**engine_kwargs("Qwen/Qwen3-8B", replay=False), logits_processors=["my_project.Clamp"])
