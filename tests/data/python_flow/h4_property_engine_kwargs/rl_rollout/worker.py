# Imitates axolotl-ai-cloud/axolotl/src/axolotl/cli/vllm_serve.py
from vllm import LLM

from rl_rollout.args import VllmRolloutArgs


def build_engine(args: VllmRolloutArgs) -> LLM:
    return LLM(**args.engine_kwargs)


if __name__ == "__main__":
    build_engine(VllmRolloutArgs())
