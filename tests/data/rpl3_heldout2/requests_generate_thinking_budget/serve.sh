#!/usr/bin/env bash
vllm serve Qwen/Qwen3-8B --port=8001 --reasoning-parser qwen3 \
  --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
