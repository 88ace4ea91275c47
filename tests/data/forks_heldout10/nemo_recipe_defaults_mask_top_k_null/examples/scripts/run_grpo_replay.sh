#!/bin/bash
set -euo pipefail

uv run examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-qwen2.5-math-1.5b-replay-1n8g.yaml \
    cluster.num_nodes=1 \
    logger.wandb_enabled=True
