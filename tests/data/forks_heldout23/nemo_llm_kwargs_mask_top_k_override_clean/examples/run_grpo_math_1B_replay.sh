#!/bin/bash
# GRPO math 1B with sampling distribution replay (fork: VllmGenerationWorker asks for the sampling mask).
set -eou pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    policy.generation.top_k=50 \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=True \
    logger.wandb.project=grpo-replay \
    logger.wandb.name=grpo-math-1b-replay \
    checkpointing.checkpoint_dir=results/grpo_math_1b_replay
