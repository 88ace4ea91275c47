#!/bin/bash
# GRPO math 1B with sampling distribution replay (the fork's policy.generation.vllm_cfg.return_sampling_mask).
set -eoux pipefail

uv run examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    policy.generation.vllm_cfg.return_sampling_mask=true \
    policy.generation.top_k=64 \
    grpo.max_num_steps=200 \
    logger.wandb_enabled=True \
    logger.wandb.name=grpo-math-1b-replay \
    checkpointing.checkpoint_dir=results/grpo-math-1b-replay
