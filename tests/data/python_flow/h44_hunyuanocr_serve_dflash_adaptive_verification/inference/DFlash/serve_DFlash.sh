#!/usr/bin/env bash
# Imitates Tencent-Hunyuan/HunyuanOCR inference/DFlash/serve_DFlash.sh (serve.sh plus DFlash speculative
# decoding: DFLASH_PATH default ${MODEL_PATH}/dflash, NUM_SPEC_TOKENS default 15, GPU_MEM_UTIL 0.85, as
# docs/inference/archive/DFlash.md describes it), with the user's replay flags and adaptive verification.
set -euo pipefail

: "${MODEL_PATH:?MODEL_PATH is required (e.g. ./HunyuanOCR)}"
GPU=${GPU:-0}
PORT=${PORT:-8000}
GPU_MEM_UTIL=${GPU_MEM_UTIL:-0.85}
MAX_MODEL_LEN=${MAX_MODEL_LEN:-2048}
SERVED_NAME=${SERVED_NAME:-tencent/HunyuanOCR}
DFLASH_PATH=${DFLASH_PATH:-${MODEL_PATH}/dflash}
NUM_SPEC_TOKENS=${NUM_SPEC_TOKENS:-15}

CUDA_VISIBLE_DEVICES=${GPU} vllm serve "${MODEL_PATH}" \
    --served-model-name "${SERVED_NAME}" \
    --port "${PORT}" \
    --gpu-memory-utilization "${GPU_MEM_UTIL}" \
    --max-model-len "${MAX_MODEL_LEN}" \
    --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs \
    --speculative-config "{\"method\":\"dflash\",\"model\":\"${DFLASH_PATH}\",\"num_speculative_tokens\":${NUM_SPEC_TOKENS},\"enable_adaptive_verification\":true}"  # expect: RPL002
