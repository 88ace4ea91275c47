#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B_topk.yaml \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=false
