#!/bin/bash
set -eou pipefail

uv run examples/run_grpo.py \
  --config examples/configs/recipes/llm/grpo-qwen3-1.7b-replay-nomtp.yaml \
  logger.log_dir=logs/grpo-qwen3-1.7b-replay \
  "$@"
