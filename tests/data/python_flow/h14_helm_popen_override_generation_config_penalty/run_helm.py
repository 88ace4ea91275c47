# Imitates stanford-crfm/helm helm-run against a locally served vLLM deployment (server started first, then the run)
import subprocess
import time

from helm_local.vllm_server import start_server

if __name__ == "__main__":
    server = start_server()
    time.sleep(120)
    try:
        subprocess.run(
            ["helm-run", "--run-entries", "mmlu:subject=philosophy,model=vllm/llama-3.2-1b", "--suite", "replay", "--max-eval-instances", "10"],
            check=True,
        )
    finally:
        server.terminate()
