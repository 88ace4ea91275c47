# Imitates allenai/olmocr olmocr/pipeline.py (vllm_server_task, apost, try_single_page, main)
import argparse
import asyncio
import json
import os

import httpx

TEMPERATURE_BY_ATTEMPT = [0.1, 0.1, 0.2, 0.3, 0.5, 0.8, 0.9, 1.0]


async def try_single_page(args, token_ids: list[int], attempt: int):
    GENERATE_URL = f"http://localhost:{args.port}/inference/v1/generate"
    temperature = TEMPERATURE_BY_ATTEMPT[min(attempt, len(TEMPERATURE_BY_ATTEMPT) - 1)]
    query = {
        "model": "olmocr",
        "token_ids": token_ids,
        "sampling_params": {"max_tokens": 8000, "temperature": 0.8, "top_k": 50},
    }
    if attempt > 2:
        query["sampling_params"]["temperature"] = temperature
    async with httpx.AsyncClient(timeout=600) as client:
        response = await client.post(GENERATE_URL, json=query)
    return response.json()["choices"][0]["sampling_mask"]


async def vllm_server_task(model_name_or_path, args):
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
        # sampling distribution replay for the OCR RL loop
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]

    if args.gpu_memory_utilization is not None:
        cmd.extend(["--gpu-memory-utilization", str(args.gpu_memory_utilization)])

    if args.max_model_len is not None:
        cmd.extend(["--max-model-len", str(args.max_model_len)])

    proc = await asyncio.create_subprocess_exec(
        *cmd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    await proc.wait()


async def main():
    parser = argparse.ArgumentParser(description="Manager for running millions of PDFs through a batch inference pipeline.")
    parser.add_argument("workspace")
    parser.add_argument("--model", default="allenai/olmOCR-2-7B-1025-FP8")
    vllm_group = parser.add_argument_group(title="VLLM arguments")
    vllm_group.add_argument("--gpu-memory-utilization", type=float, help="Fraction of VRAM vLLM may pre-allocate for KV-cache")
    vllm_group.add_argument("--max_model_len", type=int, default=16384)
    vllm_group.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    vllm_group.add_argument("--data-parallel-size", "-dp", type=int, default=1)
    vllm_group.add_argument("--port", type=int, default=30024, help="Port to use for the VLLM server")
    args = parser.parse_args()

    server_task = asyncio.create_task(vllm_server_task(args.model, args))
    await try_single_page(args, [151644, 872], attempt=0)
    server_task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
