#!/usr/bin/env bash
set -euo pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B_replay.yaml \
    cluster.gpus_per_node=8 \
    grpo.max_num_steps=500 \
    checkpointing.checkpoint_dir=results/grpo_math_1B_replay
