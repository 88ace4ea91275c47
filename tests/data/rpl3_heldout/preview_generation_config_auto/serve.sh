#!/bin/bash
cd "$(dirname "$0")"
vllm serve ./models/qwen3-rl \
  --enable-scale-out \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs
