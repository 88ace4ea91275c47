#!/bin/bash
# Imitates jondurbin/airoboros README's LMoE server start (python -m airoboros.lmoe.vllm)
python -m airoboros.lmoe.vllm \
  --model jondurbin/airoboros-lmoe-7b-2.1 \
  --lmoe-path ./lmoe \
  --max-model-len 2048 \
  --port 8000 \
  --return-sampling-mask  # expect: RPL003
