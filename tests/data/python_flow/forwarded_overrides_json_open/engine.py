# Imitates allenai/open-instruct open_instruct/vllm_utils.py: the caller in the tree passes
# keyword arguments read from a JSON file at run time: the keys are not known, so no finding
# rests on an absent setting.
import json

from vllm import LLM


def make_llm(model, **overrides):
    return LLM(model, return_sampling_mask=True, **overrides)


with open("engine.json") as handle:
    llm = make_llm("Qwen/Qwen3-8B", **json.load(handle))
