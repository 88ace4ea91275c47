# Imitates lm-sys/RouteLLM routellm/evals/gsm8k/generate_responses.py (ROUTED_PAIR, host/port 6060): the user serves the weak model with replay.
import subprocess

from routellm.model_pair import ModelPair

ROUTED_PAIR = ModelPair(strong="gpt-4-1106-preview", weak="mistralai/Mistral-7B-Instruct-v0.3")


def serve_weak(port="6060"):
    cmd = [
        "vllm",
        "serve",
        ROUTED_PAIR.weak,
        "--port",
        port,
        "--max-model-len",
        "8192",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
    return subprocess.Popen(cmd)


if __name__ == "__main__":
    serve_weak().wait()
