# Imitates OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`create_vllm_engines(..., **kwargs)`
# merged into the engine's keyword dict): the overrides are merged into a dict first, and the
# caller in another module of the tree passes the mode replay needs.
from vllm import LLM


def make_llm(model, **overrides):
    kwargs = {"model": model, "return_sampling_mask": True}
    kwargs.update(overrides)
    return LLM(**kwargs)
