#!/usr/bin/env bash
set -euo pipefail
exec vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --enable-scale-out \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --gpu-memory-utilization 0.85
