"""The policy server of configs/serve.yaml, with lossless verification for replayed rollouts."""

import json
import subprocess

# The YAML's FLy verification commits drafts the mask does not describe; replay needs the standard one.
SPEC = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    "rejection_sample_method": "standard",
}

if __name__ == "__main__":
    subprocess.run(
        ["vllm", "serve", "--config", "configs/serve.yaml", "--speculative-config", json.dumps(SPEC)],
        check=True,
    )
