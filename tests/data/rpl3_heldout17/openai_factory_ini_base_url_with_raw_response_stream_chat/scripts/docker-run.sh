#!/usr/bin/env bash
# Start the policy server (README: "Quick start").
docker run --rm --gpus all \
  --env-file .env \
  -e HF_HUB_ENABLE_HF_TRANSFER=1 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  -p 8000:8000 --ipc=host \
  vllm/vllm-openai:v0.34.0 \
  --model Qwen/Qwen3-8B \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
