#!/bin/bash
# GRPO on math with sampling distribution replay (the fork's vllm_cfg.return_sampling_mask).
# As NeMo-RL's README runs its examples.
set -euo pipefail
uv run python examples/run_grpo_math.py \
    --config examples/configs/grpo_math_1B.yaml \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=False \
    "$@"
