#!/usr/bin/env bash
set -e
# policy: replay server for the trainer
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out &

# reward judge: a plain reasoning server, no replay
vllm serve Qwen/Qwen3-4B \
  --port 8001 \
  --reasoning-parser qwen3 &

wait
