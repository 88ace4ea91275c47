#!/usr/bin/env bash
# Imitates RUC-NLPIR/WebThinker README.md (the reasoning model QwQ-32B served as "QwQ-32B" behind an
# OpenAI-compatible base URL); the user's launcher, with sampling distribution replay on.
set -e

vllm serve Qwen/QwQ-32B \
  --served-model-name QwQ-32B \
  --port 8000 \
  --max-model-len 32768 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
