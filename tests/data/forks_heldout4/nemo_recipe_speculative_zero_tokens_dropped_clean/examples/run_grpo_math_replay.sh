#!/bin/bash
# GRPO on math with a 1B model, rollouts with sampling distribution replay.
set -euo pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=True \
    logger.wandb.name=grpo-math-1b-replay
