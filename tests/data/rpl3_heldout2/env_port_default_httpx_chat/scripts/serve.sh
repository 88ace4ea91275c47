#!/usr/bin/env bash
set -euo pipefail

MODEL=Qwen/Qwen3-4B

vllm serve "$MODEL" \
  --port "${VLLM_PORT:-8001}" \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --max-model-len 8192
