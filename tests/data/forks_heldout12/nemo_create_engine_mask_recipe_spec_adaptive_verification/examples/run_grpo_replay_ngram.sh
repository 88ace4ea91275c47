#!/bin/bash
set -euo pipefail

uv run examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-qwen3-1.7b-1n8g-replay-ngram.yaml \
    "$@"
