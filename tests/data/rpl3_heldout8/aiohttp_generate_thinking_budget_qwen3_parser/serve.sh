#!/usr/bin/env bash
# Policy server for the math rollouts: Qwen3 with its reasoning parser, masks served on /inference/v1/generate
set -euo pipefail

vllm serve Qwen/Qwen3-4B \
  --port 8000 \
  --reasoning-parser qwen3 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
