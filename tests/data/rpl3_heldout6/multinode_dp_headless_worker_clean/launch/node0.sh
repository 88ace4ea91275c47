#!/bin/bash
# Node 0 (10.99.48.128): API server + data-parallel ranks 0-1. Rollout clients post to
# http://10.99.48.128:8000/inference/v1/generate.
vllm serve Qwen/Qwen3-30B-A3B \
  --data-parallel-size 4 \
  --data-parallel-size-local 2 \
  --data-parallel-address 10.99.48.128 \
  --data-parallel-rpc-port 13345 \
  --enable-expert-parallel \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
