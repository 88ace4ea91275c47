#!/usr/bin/env bash
# One server for training rollouts (rollout.py, /inference/v1/generate) and the periodic eval (evaluate.py)
set -euo pipefail

vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --reasoning-parser qwen3 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
