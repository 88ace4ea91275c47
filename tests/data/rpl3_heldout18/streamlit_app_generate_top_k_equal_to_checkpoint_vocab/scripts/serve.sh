#!/usr/bin/env bash
set -e
cd "$(dirname "$0")/.."
uv run vllm serve ./checkpoints/policy --served-model-name policy \
  --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
