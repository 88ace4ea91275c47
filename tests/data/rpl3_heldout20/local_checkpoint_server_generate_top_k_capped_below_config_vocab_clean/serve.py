"""Serve the fine-tuned policy checkpoint of models/policy with sampling masks."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent

subprocess.run(
    [
        "vllm",
        "serve",
        "./models/policy",
        "--served-model-name",
        "policy",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ],
    cwd=ROOT,
    check=True,
)
