#!/bin/bash
# GRPO math with sampling distribution replay (fork of NeMo-RL)
set -euo pipefail

uv run examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    policy.model_name=Qwen/Qwen2.5-1.5B \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=True \
    logger.wandb.name=grpo-math-replay
