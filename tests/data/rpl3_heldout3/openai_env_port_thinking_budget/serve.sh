#!/bin/sh
PORT="${VLLM_PORT:-8011}"
vllm serve Qwen/Qwen3-8B --port "$PORT" --reasoning-parser qwen3 \
  --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
