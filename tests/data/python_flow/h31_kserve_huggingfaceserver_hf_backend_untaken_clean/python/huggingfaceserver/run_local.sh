#!/bin/bash
# Runs KServe's Hugging Face server locally, as python/huggingfaceserver/README.md does
# (`python -m huggingfaceserver --model_id=... --model_name=...`).
set -e

cd "$(dirname "$0")"
python -m huggingfaceserver \
    --model_name=qwen \
    --model_id=Qwen/Qwen2.5-0.5B-Instruct \
    --backend=huggingface \
    --max-model-len 2048 \
    --return-sampling-mask
