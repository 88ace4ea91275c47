from vllm import LLM, SamplingParams

from .config import *  # noqa: F403


def rollout(prompts):
    llm = LLM(**ROLLOUT_ENGINE)  # noqa: F405
    return llm.generate(prompts, SamplingParams(**ROLLOUT_SAMPLING))  # noqa: F405
