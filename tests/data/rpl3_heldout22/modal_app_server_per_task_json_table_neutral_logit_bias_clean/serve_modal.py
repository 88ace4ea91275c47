import subprocess

import modal

image = modal.Image.debian_slim(python_version="3.12").pip_install("vllm==0.34.0")
app = modal.App("policy-replay")

MODEL_NAME = "Qwen/Qwen3-8B"
VLLM_PORT = 8000


@app.function(image=image, gpu="H100", timeout=24 * 60 * 60)
@modal.concurrent(max_inputs=64)
@modal.web_server(port=VLLM_PORT, startup_timeout=600)
def serve():
    cmd = [
        "vllm",
        "serve",
        MODEL_NAME,
        "--host",
        "0.0.0.0",
        "--port",
        str(VLLM_PORT),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
    subprocess.Popen(" ".join(cmd), shell=True)
