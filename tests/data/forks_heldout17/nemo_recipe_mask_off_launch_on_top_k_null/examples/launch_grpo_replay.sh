#!/bin/bash
set -euo pipefail

# The shared recipe with sampling distribution replay turned on.
uv run examples/run_grpo.py \
  --config examples/configs/recipes/llm/grpo-qwen2.5-1.5b-1n8g.yaml \
  policy.generation.vllm_cfg.return_sampling_mask=true \
  logger.log_dir=logs/grpo-replay
