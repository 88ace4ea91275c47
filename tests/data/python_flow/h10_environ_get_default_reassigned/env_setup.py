# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py (vLLM's environment set from the config before vLLM is imported)
import os


def setup_vllm_env(enable_lora: bool = False) -> None:
    os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = os.environ.get("VLLM_WORKER_MULTIPROC_METHOD", "spawn")
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = os.environ.get("VLLM_USE_V2_MODEL_RUNNER", "0")  # expect: RPL206
    if enable_lora:
        os.environ["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] = "True"
