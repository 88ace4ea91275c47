# Imitates huggingface/open-r1 src/open_r1/utils/evaluation.py (run_lighteval_job: a command list
# built in Python and started with subprocess), starting a replay `vllm serve` after os.putenv:
# the child process inherits the C environment putenv changed, so vLLM sees the variable.
import os
import subprocess
import time

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def launch_vllm_server(port: int = 8000) -> subprocess.Popen:
    os.putenv("VLLM_USE_V2_MODEL_RUNNER", "0")  # expect: RPL206
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--port",
        str(port),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
    proc = subprocess.Popen(cmd)
    time.sleep(60)
    return proc


if __name__ == "__main__":
    server = launch_vllm_server()
    server.wait()
