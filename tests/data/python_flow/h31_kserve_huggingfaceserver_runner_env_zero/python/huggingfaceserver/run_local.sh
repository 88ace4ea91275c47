#!/bin/bash
# Runs KServe's Hugging Face server locally, as python/huggingfaceserver/README.md does
# (`python -m huggingfaceserver --model_id=... --model_name=...`).
set -e
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206
cd "$(dirname "$0")"
python -m huggingfaceserver \
    --model_name=qwen \
    --model_id=Qwen/Qwen2.5-0.5B-Instruct \
    --backend=vllm \
    --max-model-len 2048 \
    --return-sampling-mask --logprobs-mode processed_logprobs
