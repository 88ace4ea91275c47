"""Replace this process with the replay server (the container's entrypoint)."""

import os

os.execvp(
    "vllm",
    [
        "vllm",
        "serve",
        "Qwen/Qwen3-4B",
        "--port",
        "8000",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ],
)
