#!/bin/bash
set -euo pipefail

# One GRPO run with sampling distribution replay per seed.
for SEED in 1 2 3; do
  uv run examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-qwen2.5-1.5b-replay-1n8g.yaml \
    grpo.seed=$SEED \
    logger.log_dir=logs/grpo-replay-seed$SEED
done
