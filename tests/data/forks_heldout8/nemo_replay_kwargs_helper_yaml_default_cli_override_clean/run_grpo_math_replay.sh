#!/bin/bash
set -euo pipefail

# GRPO math 1B (examples/configs/grpo_math_1B.yaml) with sampling distribution replay switched on.
uv run examples/run_grpo.py \
    policy.generation.vllm_cfg.return_sampling_mask=true \
    policy.generation.top_k=50 \
    grpo.val_at_start=true \
    logger.wandb_enabled=true \
    logger.wandb.name=grpo-math-1b-replay \
    cluster.gpus_per_node=8
