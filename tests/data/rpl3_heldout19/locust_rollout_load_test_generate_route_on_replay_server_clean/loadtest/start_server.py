"""Start the replay policy server the load test hits (run before `locust -f loadtest/locustfile.py`)."""

import subprocess
import sys

SERVE = ["vllm", "serve", "Qwen/Qwen3-0.6B", "--port", "8000", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]

if __name__ == "__main__":
    server = subprocess.Popen(SERVE, stdout=sys.stdout, stderr=sys.stderr)
    sys.exit(server.wait())
