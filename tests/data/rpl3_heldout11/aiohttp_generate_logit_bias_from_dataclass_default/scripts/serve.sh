#!/usr/bin/env bash
# Start the policy server the rollout workers sample from.
set -euo pipefail

exec vllm serve Qwen/Qwen3-1.7B \
  --host 127.0.0.1 \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --max-model-len 16384
