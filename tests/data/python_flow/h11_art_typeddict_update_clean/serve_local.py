# Imitates OpenPipe/ART src/art/local/vllm.py (the local backend starts the engine from the server config)
import asyncio

from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

from art_dev import EngineArgs, OpenAIServerConfig, get_openai_server_config


async def main() -> None:
    server_config = get_openai_server_config(
        base_model="Qwen/Qwen3-4B",
        log_file="./logs/vllm.log",
        config=OpenAIServerConfig(
            engine_args=EngineArgs(
                tensor_parallel_size=2,
                gpu_memory_utilization=0.8,
            )
        ),
    )
    engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**server_config["engine_args"]))
    params = SamplingParams(temperature=1.0, top_p=1.0, top_k=64, max_tokens=512)
    async for output in engine.generate("Let's play 2048.", params, request_id="rollout-0"):
        if output.finished:
            print(output.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())
