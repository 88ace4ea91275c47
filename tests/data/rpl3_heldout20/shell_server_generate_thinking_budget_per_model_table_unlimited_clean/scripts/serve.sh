#!/usr/bin/env bash
set -euo pipefail
exec vllm serve Qwen/Qwen3-8B --port 8000 \
  --reasoning-parser qwen3 \
  --return-sampling-mask --logprobs-mode processed_logprobs \
  --enable-scale-out
