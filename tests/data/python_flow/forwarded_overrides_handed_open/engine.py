# Imitates OpenRLHF openrlhf/trainer/ray/vllm_engine.py: the function that forwards `**kwargs`
# to the engine is handed to something else that calls it (here a thread pool): what that
# caller passes is not known, so no finding rests on an absent setting.
from concurrent.futures import ThreadPoolExecutor

from vllm import LLM


def make_llm(model, **overrides):
    return LLM(model, return_sampling_mask=True, **overrides)


def start(model, engine_kwargs):
    with ThreadPoolExecutor() as pool:
        return pool.submit(make_llm, model, **engine_kwargs).result()
