import subprocess

import modal

MODEL_NAME = "Qwen/Qwen3-8B"
VLLM_PORT = 8000
N_GPU = 1
REPLAY = True  # keep the sampling masks for the trainer's importance correction

image = modal.Image.debian_slim(python_version="3.12").pip_install("vllm==0.34.0")
app = modal.App("grpo-policy-server")


@app.function(image=image, gpu=f"H100:{N_GPU}", timeout=60 * 60)
@modal.concurrent(max_inputs=64)
@modal.web_server(port=VLLM_PORT, startup_timeout=15 * 60)
def serve():
    cmd = [
        "vllm",
        "serve",
        "--uvicorn-log-level=info",
        MODEL_NAME,
        "--served-model-name",
        "policy",
        "--host",
        "0.0.0.0",
        "--port",
        str(VLLM_PORT),
    ]
    cmd += ["--tensor-parallel-size", str(N_GPU)]
    if REPLAY:
        cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]
    print(cmd)
    subprocess.Popen(" ".join(cmd), shell=True)


@app.local_entrypoint()
async def smoke(prompt_ids: str = "151644,872,198"):
    import aiohttp

    url = serve.get_web_url()
    payload = {
        "model": "policy",
        "token_ids": [int(t) for t in prompt_ids.split(",")],
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 64},
    }
    async with aiohttp.ClientSession(base_url=url) as session:
        async with session.post("/inference/v1/generate", json=payload) as resp:
            resp.raise_for_status()
            out = await resp.json()
    print(out["choices"][0]["token_ids"][:8])
