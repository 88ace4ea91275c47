#!/bin/bash
# The fork's GRPO run, as NeMo-RL's docs/guides/grpo.md launches a recipe.
set -eou pipefail

uv run examples/run_grpo.py \
  --config examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml \
  logger.wandb_enabled=false \
  cluster.gpus_per_node=8
