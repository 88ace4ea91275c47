# Imitates BerriAI/litellm's hosted_vllm setup (cookbook: start an OpenAI-compatible vLLM server, then call
# litellm.completion(model="hosted_vllm/...", api_base=...)); the server started the way its docs show
import subprocess
import sys

MODEL = "Qwen/Qwen2.5-7B-Instruct"
PORT = 8000


def start_vllm():
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            MODEL,
            "--port",
            str(PORT),
            "--return-sampling-mask",
            "--logprobs-mode",
            "processed_logprobs",
            "--enable-scale-out",
        ]
    )
