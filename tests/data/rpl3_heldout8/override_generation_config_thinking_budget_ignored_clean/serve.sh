#!/usr/bin/env bash
# Policy server; the thinking budget is meant as a server default for every request
set -euo pipefail

vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --reasoning-parser qwen3 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out \
  --override-generation-config '{"thinking_token_budget": 2048, "max_new_tokens": 6144}'
