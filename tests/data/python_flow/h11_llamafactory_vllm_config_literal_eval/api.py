# Imitates hiyouga/LLaMA-Factory src/api.py (the API entry builds the chat engine from parsed arguments)
import asyncio

from lf.model_args import ModelArguments
from lf.vllm_engine import VllmEngine


async def main() -> None:
    engine = VllmEngine(ModelArguments())
    async for output in engine.generate("Hello!", "req-0"):
        print(output.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())
