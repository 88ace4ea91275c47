#!/usr/bin/env bash
# Policy server for the SFT checkpoint; the sampler below reads its masks.
set -euo pipefail
cd "$(dirname "$0")/.."

exec vllm serve ./checkpoints/sft-llama3.2-1b \
  --served-model-name policy \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --port 8000
