#!/usr/bin/env bash
# Imitates Tencent-Hunyuan/HunyuanOCR inference/vLLM/serve.sh (single-GPU `vllm serve` launch driven by
# MODEL_PATH / GPU / PORT / GPU_MEM_UTIL / MAX_MODEL_LEN / SERVED_NAME, as docs/inference/archive/vLLM.md
# describes it), with the replay flags and the token-in/token-out routes on the last line.
set -euo pipefail

: "${MODEL_PATH:?MODEL_PATH is required (e.g. ./HunyuanOCR)}"
GPU=${GPU:-0}
PORT=${PORT:-8000}
GPU_MEM_UTIL=${GPU_MEM_UTIL:-0.9}
MAX_MODEL_LEN=${MAX_MODEL_LEN:-2048}
SERVED_NAME=${SERVED_NAME:-tencent/HunyuanOCR}

CUDA_VISIBLE_DEVICES=${GPU} vllm serve "${MODEL_PATH}" \
    --served-model-name "${SERVED_NAME}" \
    --port "${PORT}" \
    --gpu-memory-utilization "${GPU_MEM_UTIL}" \
    --max-model-len "${MAX_MODEL_LEN}" \
    --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs
