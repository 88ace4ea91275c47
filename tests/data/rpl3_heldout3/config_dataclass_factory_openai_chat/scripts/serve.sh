#!/usr/bin/env bash
set -euo pipefail
exec vllm serve Qwen/Qwen3-8B \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --max-model-len 16384
