# Imitates rllm-org/rllm rllm/trainer (star import of the settings, the environment written in a loop)
import os

from vllm import LLM, SamplingParams

from .settings import *  # noqa: F403


def start(model):
    for key, value in VLLM_ENV.items():  # noqa: F405
        os.environ[key] = value
    return LLM(model, **ENGINE_ARGS)  # noqa: F405


if __name__ == "__main__":
    start("agentica-org/DeepScaleR-1.5B-Preview").generate(["x"], SamplingParams(temperature=0.6, top_k=20))
