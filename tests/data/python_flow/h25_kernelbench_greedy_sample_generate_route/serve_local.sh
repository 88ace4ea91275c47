#!/usr/bin/env bash
# Imitates ScalingIntelligence/KernelBench src/kernelbench/utils.py (the "local" preset's server on port 10210):
# the user's launcher for that server, with sampling distribution replay turned on.
set -e

MODEL=Qwen/Qwen2.5-Coder-7B-Instruct

vllm serve "$MODEL" \
  --port 10210 \
  --served-model-name default \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
