import json
import os
import shlex
import subprocess
import sys


def speculative_config() -> dict:
    spec = {
        "method": os.environ.get("SPEC_METHOD", "ngram"),
        "num_speculative_tokens": int(os.environ.get("SPEC_TOKENS", "3")),
        "prompt_lookup_max": int(os.environ.get("SPEC_LOOKUP_MAX", "4")),
        "rejection_sample_method": os.environ.get("SPEC_VERIFY", "synthetic"),
    }
    if spec["rejection_sample_method"] == "synthetic":
        spec["synthetic_acceptance_length"] = float(os.environ.get("SPEC_ACCEPT_LENGTH", "2.5"))
    return spec


def main() -> int:
    cmd = [
        "vllm",
        "serve",
        os.environ.get("MODEL", "Qwen/Qwen3-8B"),
        "--port",
        os.environ.get("PORT", "8000"),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
        "--speculative-config",
        json.dumps(speculative_config()),
    ]
    print("launching:", shlex.join(cmd), flush=True)
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
