#!/usr/bin/env bash
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-8B}
export VLLM_LOGGING_LEVEL=INFO
exec vllm serve "$MODEL" \
  --host 0.0.0.0 --port 8000 \
  --tensor-parallel-size 2 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --max-model-len 16384
