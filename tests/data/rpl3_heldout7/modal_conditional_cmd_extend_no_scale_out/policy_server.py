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
        cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    print(cmd)
    subprocess.Popen(" ".join(cmd), shell=True)
