#!/bin/bash
set -euo pipefail

# GRPO on math with sampling distribution replay (fork of NeMo-RL).
uv run python examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=False "$@"
