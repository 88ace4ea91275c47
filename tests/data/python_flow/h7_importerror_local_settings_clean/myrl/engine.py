# Imitates allenai/open-instruct open_instruct/utils.py: optional machine-local overrides imported
# from a module that is not in the repository (it is git-ignored), with a fallback.
from vllm import LLM

try:
    from myrl.local_settings import ENGINE_OVERRIDES
except ImportError:
    ENGINE_OVERRIDES = {}

ENGINE = {"model": "allenai/OLMo-2-0425-1B", "return_sampling_mask": True}


def make_engine() -> LLM:
    return LLM(**ENGINE, **ENGINE_OVERRIDES)
