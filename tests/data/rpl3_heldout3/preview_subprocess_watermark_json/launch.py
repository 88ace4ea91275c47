import json
import subprocess

WATERMARK = {"key": 1234, "context_width": 4}

subprocess.run(
    [
        "vllm", "serve", "Qwen/Qwen3-8B",
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
        "--enable-scale-out",
        "--generation-config", "vllm",
        "--watermark-config", json.dumps(WATERMARK),
    ],
    check=True,
)
