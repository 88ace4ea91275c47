#!/usr/bin/env bash
set -euo pipefail

cd "$(dirname "$0")/.."

MODEL_DIR=./checkpoints/qwen3-0.6b-sft

vllm serve "$MODEL_DIR" \
    --served-model-name policy \
    --port 8000 \
    --max-model-len 8192 \
    --gpu-memory-utilization 0.9 \
    --return-sampling-mask \
    --logprobs-mode processed_logprobs \
    --enable-scale-out
