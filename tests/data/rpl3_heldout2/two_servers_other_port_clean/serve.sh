#!/usr/bin/env bash
set -euo pipefail
vllm serve Qwen/Qwen3-8B --port 8001 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out &
vllm serve Qwen/Qwen3-32B --port 8002 &
wait
