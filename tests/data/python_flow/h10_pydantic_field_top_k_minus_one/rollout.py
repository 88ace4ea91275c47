# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/orchestrator/orchestrator.py (rollouts sampled with the config's sampling block)
import asyncio
import uuid

from vllm import SamplingParams

from config import RolloutConfig
from engine import build_engine


async def rollout(prompts):
    cfg = RolloutConfig()
    engine = build_engine(cfg.engine)
    params = SamplingParams(**cfg.sampling.model_dump())
    results = []
    for prompt in prompts:
        async for out in engine.generate(prompt, params, str(uuid.uuid4())):
            final = out
        results.append(final)
    return results


if __name__ == "__main__":
    asyncio.run(rollout(["What is 2 + 2?"]))
