#!/bin/bash
# Node 1: data-parallel ranks 2-3, no API server of its own.
vllm serve Qwen/Qwen3-30B-A3B \
  --headless \
  --data-parallel-size 4 \
  --data-parallel-size-local 2 \
  --data-parallel-start-rank 2 \
  --data-parallel-address 10.99.48.128 \
  --data-parallel-rpc-port 13345 \
  --enable-expert-parallel \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs
