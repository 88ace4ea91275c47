#!/bin/bash
# GRPO on math with sampling distribution replay.
set -eou pipefail

uv run examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-qwen2.5-1.5b-replay-tis.yaml \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=false \
    "$@"
