#!/bin/sh
# Serve the local checkpoint for the rollout workers.
exec vllm serve ./models/qwen2.5-7b-instruct \
  --served-model-name policy \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
