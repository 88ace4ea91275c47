#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."

exec vllm serve ./checkpoints/policy-vl \
  --port 8000 \
  --max-model-len 32768 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
