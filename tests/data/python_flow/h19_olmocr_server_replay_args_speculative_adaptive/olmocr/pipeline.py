# Imitates allenai/olmocr olmocr/pipeline.py (vllm_server_task, vllm_server_host, main)
import argparse
import asyncio
import os

from olmocr.replay import REPLAY_SERVE_ARGS


async def vllm_server_task(model_name_or_path, args, unknown_args=None):
    cmd = [
        "vllm",
        "serve",
        model_name_or_path,
        "--port",
        str(args.port),
        "--uvicorn-log-level",
        "warning",
        "--served-model-name",
        "olmocr",
        "--tensor-parallel-size",
        str(args.tensor_parallel_size),
        "--data-parallel-size",
        str(args.data_parallel_size),
        "--limit-mm-per-prompt",
        '{"video": 0}',
    ]

    if args.gpu_memory_utilization is not None:
        cmd.extend(["--gpu-memory-utilization", str(args.gpu_memory_utilization)])

    if args.max_model_len is not None:
        cmd.extend(["--max-model-len", str(args.max_model_len)])

    if args.replay:
        cmd.extend(REPLAY_SERVE_ARGS)

    if unknown_args:
        cmd.extend(unknown_args)

    proc = await asyncio.create_subprocess_exec(
        *cmd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    await proc.wait()


async def vllm_server_host(model_name_or_path, args, unknown_args=None):
    retry = 0
    while retry < 5:
        await vllm_server_task(model_name_or_path, args, unknown_args)
        retry += 1


async def main():
    parser = argparse.ArgumentParser(description="Manager for running millions of PDFs through a batch inference pipeline.")
    parser.add_argument("workspace")
    parser.add_argument("--model", default="allenai/olmOCR-2-7B-1025-FP8")
    parser.add_argument("--replay", action="store_true", default=True, help="Return sampling masks for RL replay")
    vllm_group = parser.add_argument_group(title="VLLM arguments")
    vllm_group.add_argument("--gpu-memory-utilization", type=float)
    vllm_group.add_argument("--max_model_len", type=int, default=16384)
    vllm_group.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    vllm_group.add_argument("--data-parallel-size", "-dp", type=int, default=1)
    vllm_group.add_argument("--port", type=int, default=30024)
    args = parser.parse_args()

    await vllm_server_host(args.model, args)


if __name__ == "__main__":
    asyncio.run(main())
