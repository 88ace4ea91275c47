# Imitates stanford-crfm/helm's local vLLM setup (docs/vllm.md: serve the model, then point helm.clients.vllm_client.VLLMClient at it)
import subprocess

MODEL = "meta-llama/Llama-3.2-1B-Instruct"
PORT = 8000


def start_server() -> subprocess.Popen:
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--port",
        str(PORT),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
    return subprocess.Popen(cmd)
