#!/usr/bin/env bash
# Replay server on the local Mistral checkpoint; every request's default top_k set on the server
set -euo pipefail
cd "$(dirname "$0")/.."

vllm serve ./models/Mistral-7B-Instruct-v0.3 \
  --served-model-name policy \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --override-generation-config '{"top_k": 32000, "temperature": 1.0}'
