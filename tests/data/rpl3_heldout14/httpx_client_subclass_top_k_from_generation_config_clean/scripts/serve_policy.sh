#!/usr/bin/env bash
# Serves the latest policy checkpoint for replay sampling on this node.
set -euo pipefail
cd "$(dirname "$0")/.."

exec vllm serve checkpoints/policy-0p6b \
  --served-model-name policy \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --gpu-memory-utilization 0.8
