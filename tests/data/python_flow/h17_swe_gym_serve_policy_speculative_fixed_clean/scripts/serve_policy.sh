#!/bin/bash
# Imitates SWE-Gym/SWE-Gym's rollout setup (serve the OpenHands policy with vLLM, then point
# OpenHands' LLM config at it); the serve line written as its scripts write theirs
set -euo pipefail

MODEL=${MODEL:-SWE-Gym/OpenHands-32B-Agent}
PORT=8000
export CUDA_VISIBLE_DEVICES=0,1,2,3

vllm serve "$MODEL" \
  --port "$PORT" \
  --tensor-parallel-size 4 \
  --max-model-len 32768 \
  --served-model-name openhands-lm \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}'
