#!/bin/bash
# GRPO on math with Llama-3.2-1B-Instruct (the upstream recipe), generation through the fork's vLLM worker.
set -eou pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    cluster.gpus_per_node=8 \
    grpo.max_num_steps=500 \
    logger.wandb_enabled=false \
    checkpointing.checkpoint_dir=results/grpo_math_1B_replay
