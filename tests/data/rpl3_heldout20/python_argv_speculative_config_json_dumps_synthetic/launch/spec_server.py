"""Replay server with n-gram speculation; the spec is kept as a dict and dumped into argv."""

import json
import subprocess

SPEC = {
    "method": "ngram",
    "num_speculative_tokens": 3,
    "prompt_lookup_max": 4,
    "prompt_lookup_min": 2,
    "rejection_sample_method": "synthetic",
    "synthetic_acceptance_length": 2.5,
}

ARGV = [
    "vllm",
    "serve",
    "Qwen/Qwen3-4B",
    "--port",
    "8000",
    "--return-sampling-mask",
    "--logprobs-mode",
    "processed_logprobs",
    "--enable-scale-out",
    "--speculative-config",
    json.dumps(SPEC),
]

if __name__ == "__main__":
    subprocess.run(ARGV, check=True)
