# Imitates stanford-crfm/helm's local vLLM setup (docs/vllm.md: serve the model, then point helm.clients.vllm_client.VLLMClient at it)
import json
import subprocess

MODEL = "meta-llama/Llama-3.2-1B-Instruct"
PORT = 8000

GENERATION_OVERRIDES = {
    "temperature": 0.7,
    "top_k": 40,
    "repetition_penalty": 1.05,  # expect: RPL302
}


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
        "--override-generation-config",
        json.dumps(GENERATION_OVERRIDES),
    ]
    return subprocess.Popen(cmd)
