import asyncio

MODEL = "Qwen/Qwen3-8B"
ARGV = [
    "serve", MODEL, "--port", "8100",
    "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out",
]


async def main() -> None:
    server = await asyncio.create_subprocess_exec("vllm", *ARGV)
    rollout = await asyncio.create_subprocess_exec("python", "-m", "rollout.run", "--model", MODEL)
    await rollout.wait()
    server.terminate()


asyncio.run(main())
