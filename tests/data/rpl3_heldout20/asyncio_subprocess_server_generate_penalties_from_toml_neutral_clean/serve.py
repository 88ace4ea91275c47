"""Start the replay server with asyncio and wait for it."""

import asyncio

ARGV = [
    "serve",
    "Qwen/Qwen3-4B",
    "--port",
    "8000",
    "--return-sampling-mask",
    "--logprobs-mode",
    "processed_logprobs",
    "--enable-scale-out",
]


async def main() -> None:
    server = await asyncio.create_subprocess_exec("vllm", *ARGV)
    await server.wait()


if __name__ == "__main__":
    asyncio.run(main())
