# Imitates modal-labs/modal-examples 06_gpu_and_ml/llm-serving/vllm_inference.py (a `vllm serve` word list joined and run with shell=True).
import json
from typing import Any

import aiohttp
import modal

vllm_image = (
    modal.Image.debian_slim(python_version="3.12")
    .pip_install("vllm==0.34.0", "huggingface_hub[hf_transfer]==0.32.0")
    .env({"HF_HUB_ENABLE_HF_TRANSFER": "1"})  # faster model transfers
)

MODEL_NAME = "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8"
MODEL_REVISION = "12fd6884d2585dd4d020373e7f39f74507b31866"

hf_cache_vol = modal.Volume.from_name("huggingface-cache", create_if_missing=True)
vllm_cache_vol = modal.Volume.from_name("vllm-cache", create_if_missing=True)

FAST_BOOT = True

app = modal.App("example-vllm-openai-compatible")

N_GPU = 1
MINUTES = 60  # seconds
VLLM_PORT = 8000


@app.function(
    image=vllm_image,
    gpu=f"B200:{N_GPU}",
    scaledown_window=15 * MINUTES,
    timeout=10 * MINUTES,
    volumes={"/root/.cache/huggingface": hf_cache_vol, "/root/.cache/vllm": vllm_cache_vol},
)
@modal.concurrent(max_inputs=32)
@modal.web_server(port=VLLM_PORT, startup_timeout=10 * MINUTES)
def serve():
    import subprocess

    cmd = [
        "vllm",
        "serve",
        "--uvicorn-log-level=info",
        MODEL_NAME,
        "--revision",
        MODEL_REVISION,
        "--served-model-name",
        MODEL_NAME,
        "llm",
        "--host",
        "0.0.0.0",
        "--port",
        str(VLLM_PORT),
        "--max-model-len",
        "2048",
    ]

    # enforce-eager disables both Torch compilation and CUDA graph capture
    cmd += ["--enforce-eager" if FAST_BOOT else "--no-enforce-eager"]

    # assume multiple GPUs are for splitting up large matrix multiplications
    cmd += ["--tensor-parallel-size", str(N_GPU)]

    # sampling distribution replay for our RL trainer
    cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]

    if not FAST_BOOT:
        # adaptive EAGLE-3 drafts only pay off on warm replicas
        spec = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}
        spec["enable_adaptive_verification"] = True
        cmd += ["--speculative-config", f"'{json.dumps(spec)}'"]

    print(cmd)

    subprocess.Popen(" ".join(cmd), shell=True)


@app.local_entrypoint()
async def test(test_timeout=10 * MINUTES, content=None):
    url = serve.get_web_url()
    if content is None:
        content = "Explain the singular value decomposition."
    messages = [{"role": "user", "content": content}]
    async with aiohttp.ClientSession(base_url=url) as session:
        async with session.get("/health", timeout=test_timeout - 1 * MINUTES) as resp:
            assert resp.status == 200, f"Failed health check for server at {url}"
        await _send_request(session, "llm", messages)


async def _send_request(session: aiohttp.ClientSession, model: str, messages: list) -> None:
    payload: dict[str, Any] = {"messages": messages, "model": model, "stream": False, "temperature": 0.7, "top_k": 20}
    headers = {"Content-Type": "application/json"}
    async with session.post("/v1/chat/completions", json=payload, headers=headers, timeout=1 * MINUTES) as resp:
        resp.raise_for_status()
        print(json.loads(await resp.text())["choices"][0]["message"]["content"])
