#!/bin/bash
set -euo pipefail

uv run examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-qwen2.5-1.5b-instruct-1n8g-replay.yaml \
    logger.wandb_enabled=True \
    "$@"
