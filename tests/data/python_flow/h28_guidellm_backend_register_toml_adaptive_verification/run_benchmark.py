# Imitates vllm-project/guidellm src/guidellm/__main__.py (`guidellm benchmark --backend vllm_python
# --backend-kwargs ...`), the backend kwargs read from benchmark.toml with tomllib.
import asyncio
import tomllib
from pathlib import Path

from guidellm.backends import Backend


async def main():
    with open(Path(__file__).parent / "benchmark.toml", "rb") as f:
        settings = tomllib.load(f)
    backend = Backend.create("vllm_python", model=settings["model"], vllm_config=settings["vllm_config"])
    await backend.process_startup()
    async for _ in backend.resolve("Hello", "req-0"):
        pass


if __name__ == "__main__":
    asyncio.run(main())
