# Imitates meta-pytorch/torchforge apps/vllm/main.py: a @parse recipe reading --config YAML, spawning
# the Generator service from cfg.policy and routing n generate requests to it.
"""To run:
export HF_HUB_DISABLE_XET=1
python -m apps.vllm.main --config apps/vllm/llama3_8b.yaml
"""

import asyncio

import os

from forge.actors.generator import Generator
from forge.cli.config import parse
from omegaconf import DictConfig

os.environ["HYPERACTOR_MESSAGE_DELIVERY_TIMEOUT_SECS"] = "600"
os.environ["HYPERACTOR_CODE_MAX_FRAME_LENGTH"] = "1073741824"


async def run(cfg: DictConfig):
    if (prompt := cfg.get("prompt")) is None:
        gd = cfg.policy.get("sampling_config", {}).get("guided_decoding", False)
        prompt = "What is 3+5?" if gd else "Tell me a joke"

    print("Spawning service...")
    policy = await Generator.options(**cfg.services.policy).as_service(**cfg.policy)

    import time

    print("Requesting generation...")
    n = 100
    start = time.time()
    response_outputs = await asyncio.gather(
        *[policy.generate.route(prompt=prompt) for _ in range(n)]
    )
    end = time.time()

    print(f"Generation of {n} requests completed in {end - start:.2f} seconds.")
    for batch, response in enumerate(response_outputs[-1]):
        print(f"Sample {batch + 1}:")
        print(f"User: {prompt}")
        print(f"Assistant: {response.text}")

    print("\nShutting down...")
    await policy.shutdown()


@parse
def recipe_main(cfg: DictConfig) -> None:
    asyncio.run(run(cfg))


if __name__ == "__main__":
    recipe_main()
