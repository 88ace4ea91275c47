# Imitates alibaba/ROLL roll/pipeline/rlvr/rlvr_pipeline.py (the actor_infer cluster initialises its strategy)
import asyncio

from strategy_config import ACTOR_INFER_STRATEGY
from vllm_strategy import VllmStrategy


def main():
    strategy = VllmStrategy("Qwen/Qwen2.5-7B-Instruct", ACTOR_INFER_STRATEGY)
    asyncio.run(strategy.initialize())


if __name__ == "__main__":
    main()
