"""Launch the policy server with n-gram speculation for long math rollouts."""

import json
import os
import subprocess

MODEL = "Qwen/Qwen3-4B"
PORT = 8000

speculative_config = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    # measured acceptance on our traces; synthetic keeps the step cost predictable
    "rejection_sample_method": "synthetic",
    "synthetic_acceptance_rates": [0.9, 0.7, 0.5, 0.3],
}

cmd = [
    "vllm", "serve", MODEL,
    "--port", str(PORT),
    "--enable-scale-out",
    "--return-sampling-mask",
    "--logprobs-mode", "processed_logprobs",
    "--speculative-config", json.dumps(speculative_config),
]

if __name__ == "__main__":
    env = dict(os.environ, VLLM_LOGGING_LEVEL="INFO")
    raise SystemExit(subprocess.call(cmd, env=env))
