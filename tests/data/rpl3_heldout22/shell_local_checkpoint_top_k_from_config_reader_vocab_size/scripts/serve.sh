#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."

vllm serve ./checkpoints/policy \
  --served-model-name policy \
  --port 8000 \
  --max-model-len 8192 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
