# Imitates OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`create_vllm_engines`): a helper that
# returns other engine arguments when replay is asked for; only that branch lacks the mode, and
# the finding says when it holds.
from vllm import LLM


def engine_kwargs(model, replay):
    if replay:
        return {"model": model, "return_sampling_mask": True}  # expect: RPL003 "when `replay` is true"
    return {"model": model, "enforce_eager": True}


def build(model, replay):
    return LLM(**engine_kwargs(model, replay))
