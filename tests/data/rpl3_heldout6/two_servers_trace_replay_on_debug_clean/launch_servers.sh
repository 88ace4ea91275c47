#!/usr/bin/env bash
# GPU 0: the policy server the learner replays. GPU 1: a debug server that re-runs logged
# traces (trace_decode_token_ids) to reproduce bad rollouts; it returns no masks.
set -euo pipefail

CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --enable-scale-out \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs &

CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B \
  --port 8001 \
  --enable-scale-out \
  --enable-trace-replay &

wait
