# Imitates willccbb/verifiers verifiers/envs/environment.py: the settings read as a module's attributes
from vllm import LLM, SamplingParams

from . import settings


def run(prompts):
    llm = LLM(**settings.VLLM_KWARGS)
    return llm.generate(prompts, SamplingParams(**settings.SAMPLING))


if __name__ == "__main__":
    run(["Find x: 2x=6"])
