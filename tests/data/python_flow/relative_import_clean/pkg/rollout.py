# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: defaults imported
# relatively, the mask turned on here: clean.
from vllm import LLM

from .defaults import ENGINE_DEFAULTS


def build(model):
    return LLM(model, return_sampling_mask=True, **ENGINE_DEFAULTS)
