# Imitates volcengine/verl verl/single_controller/base/decorator.py users: a worker method that
# a framework calls (`@register(...)`) forwards its `**kwargs` to the engine: the framework's
# arguments are not in the tree, so no finding rests on an absent setting.
from vllm import LLM

from workers import register


@register(dispatch_mode="ONE_TO_ALL")
def init_engine(model, **engine_kwargs):
    return LLM(model, return_sampling_mask=True, **engine_kwargs)
