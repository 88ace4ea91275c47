# Imitates microsoft/agent-lightning examples/unsloth/sft_algorithm.py (`vllm serve` started by a context manager from an argument list).
import asyncio
import subprocess
import time
from contextlib import contextmanager
from typing import List, Optional

import httpx

from agentlightning import setup_logging
from agentlightning.llm_proxy import LLMProxy, ModelConfig
from agentlightning.store import LightningStore, LightningStoreClient


@contextmanager
def vllm_server(
    model_path: str,
    port: int,
    startup_timeout: float = 300.0,
    terminate_timeout: float = 10.0,
    max_model_len: int = 2048,
    gpu_memory_utilization: float = 0.7,
    quantization: Optional[str] = None,
    auto_tool_choice: bool = True,
    tool_call_parser: Optional[str] = "hermes",
    return_sampling_mask: bool = True,
    logprobs_mode: Optional[str] = None,
):
    """Serves a vLLM model from command line."""
    proc: Optional[subprocess.Popen[bytes]] = None
    try:
        vllm_serve_args = [
            "--gpu-memory-utilization",
            str(gpu_memory_utilization),
            "--max-model-len",
            str(max_model_len),
            "--port",
            str(port),
        ]
        if quantization is not None:
            vllm_serve_args.append("--quantization")
            vllm_serve_args.append(quantization)
        if auto_tool_choice:
            vllm_serve_args.append("--enable-auto-tool-choice")
        if tool_call_parser is not None:
            vllm_serve_args.append("--tool-call-parser")
            vllm_serve_args.append(tool_call_parser)
        if return_sampling_mask:
            vllm_serve_args += ["--return-sampling-mask", "--enable-scale-out"]  # expect: RPL003
        if logprobs_mode is not None:
            vllm_serve_args += ["--logprobs-mode", logprobs_mode]

        proc = subprocess.Popen(["vllm", "serve", model_path, *vllm_serve_args])

        url = f"http://localhost:{port}/health"
        start = time.time()
        client = httpx.Client()
        while True:
            try:
                if client.get(url).status_code == 200:
                    break
            except Exception:
                result = proc.poll()
                if result is not None and result != 0:
                    raise RuntimeError("Server exited unexpectedly.") from None
                time.sleep(0.5)
                if time.time() - start > startup_timeout:
                    raise RuntimeError(f"Server failed to start in {startup_timeout} seconds.") from None

        yield f"http://localhost:{port}/v1"
    finally:
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(terminate_timeout)
        except subprocess.TimeoutExpired:
            proc.kill()


async def sft_one_iter(*, iteration: int, store: LightningStore, model_path: str, llm_proxy: LLMProxy, vllm_port: int) -> str:
    with vllm_server(model_path, vllm_port) as server_address:
        model_list: List[ModelConfig] = [
            {
                "model_name": "Qwen3-4B-Instruct",
                "litellm_params": {"model": f"hosted_vllm/{model_path}", "api_base": server_address},
            }
        ]
        llm_proxy.update_model_list(model_list)
        await llm_proxy.restart()
        await store.add_resources({"main_llm": llm_proxy.as_resource()})
    return f"models/version_{iteration + 1}"


async def sft_algorithm(*, store: LightningStore) -> None:
    MAX_ITERATIONS = 2
    VLLM_PORT = 12316
    LLM_PROXY_PORT = 12358
    model_path = "models/version_0"
    llm_proxy = LLMProxy(port=LLM_PROXY_PORT, store=store)
    for iteration in range(MAX_ITERATIONS):
        model_path = await sft_one_iter(
            iteration=iteration, store=store, model_path=model_path, llm_proxy=llm_proxy, vllm_port=VLLM_PORT
        )


if __name__ == "__main__":
    setup_logging()
    store = LightningStoreClient("http://localhost:4747")
    asyncio.run(sft_algorithm(store=store))
