#!/usr/bin/env bash
# Start the rollout policy server in the official image (vLLM 0.34.0).
set -euo pipefail

MODEL="${MODEL:-Qwen/Qwen3-4B}"

docker run -d --name policy --gpus all --ipc=host \
  -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
  -p 8000:8000 \
  vllm/vllm-openai:v0.34.0 \
  --model "$MODEL" \
  --host 0.0.0.0 \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --gpu-memory-utilization 0.92
