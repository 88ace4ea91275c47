#!/bin/bash
vllm serve Qwen/Qwen3-8B --port 8003 --enable-scale-out --reasoning-parser qwen3 \
  --return-sampling-mask --logprobs-mode processed_logprobs
