import subprocess

SERVER = subprocess.Popen(
    "vllm serve Qwen/Qwen3-8B --reasoning-parser qwen3 "
    "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out",
    shell=True,
)
