# Imitates allenai/olmocr olmocr/pipeline.py (vllm_server_task, apost, try_single_page, main)
import argparse
import asyncio
import json
import os
from urllib.parse import urlparse

TEMPERATURE_BY_ATTEMPT = [0.1, 0.1, 0.2, 0.3, 0.5, 0.8, 0.9, 1.0]


async def apost(url, json_data, api_key=None):
    parsed_url = urlparse(url)
    reader, writer = await asyncio.open_connection(parsed_url.hostname, parsed_url.port or 80)
    json_payload = json.dumps(json_data)
    headers = [
        f"POST {parsed_url.path} HTTP/1.1",
        f"Host: {parsed_url.hostname}",
        "Content-Type: application/json",
        f"Content-Length: {len(json_payload)}",
        "Connection: close",
    ]
    writer.write(("\r\n".join(headers) + "\r\n\r\n" + json_payload).encode())
    await writer.drain()
    status_line = await reader.readline()
    body = await reader.read()
    writer.close()
    return int(status_line.split()[1]), body


async def try_single_page(args, image_base64: str, attempt: int):
    COMPLETION_URL = f"{args.server.rstrip('/')}/chat/completions"
    temperature = TEMPERATURE_BY_ATTEMPT[min(attempt, len(TEMPERATURE_BY_ATTEMPT) - 1)]
    query = {
        "model": "olmocr",
        "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": f"data:image/png;base64,{image_base64}"}}]}],
        "max_tokens": 8000,
        "temperature": 0.0,  # This will get overridden later
    }
    query["temperature"] = temperature
    return await apost(COMPLETION_URL, json_data=query)


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
        "--return-sampling-mask",  # expect: RPL301
        "--logprobs-mode",
        "processed_logprobs",
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
    args.server = f"http://localhost:{args.port}/v1"

    server_task = asyncio.create_task(vllm_server_task(args.model, args))
    await try_single_page(args, "", attempt=0)
    server_task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
