# Imitates inclusionAI/AReaL examples: a script taking everything from the constants module by star import
from constants import *  # noqa: F403
from vllm import LLM, SamplingParams

llm = LLM("inclusionAI/AReaL-boba-2-8B", **ENGINE)  # noqa: F405
print(llm.generate(["1+1"], SamplingParams(**SAMPLING)))  # noqa: F405
