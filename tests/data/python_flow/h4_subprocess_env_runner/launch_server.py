# Imitates rllm-org/rllm/rllm/engine/rollout/vllm_server.py (the trainer starts its own vLLM server)
import os
import subprocess
import sys

MODEL = "agentica-org/DeepScaleR-1.5B-Preview"


def start_vllm_server(port: int = 8000, tp: int = 1) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server",
        "--model", MODEL,
        "--port", str(port),
        "--tensor-parallel-size", str(tp),
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
        "--enable-scale-out",
    ]
    env = dict(
        os.environ,
        VLLM_USE_V2_MODEL_RUNNER="0",  # expect: RPL206
        VLLM_ALLOW_RUNTIME_LORA_UPDATING="1",
    )
    return subprocess.Popen(cmd, env=env)


if __name__ == "__main__":
    server = start_vllm_server()
    server.wait()
