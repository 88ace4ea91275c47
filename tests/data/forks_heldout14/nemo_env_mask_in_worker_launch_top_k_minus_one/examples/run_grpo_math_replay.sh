#!/bin/bash
# GRPO math 1B with the fork's replay switch; full-vocabulary top_k spelled out for the replay A/B.
set -eou pipefail

export NRL_SAMPLING_REPLAY=1
uv run examples/run_grpo.py \
  --config examples/configs/grpo_math_1B.yaml \
  policy.model_name=Qwen/Qwen2.5-1.5B \
  policy.generation.temperature=1.0 \
  policy.generation.top_k=-1 \
  cluster.gpus_per_node=8 \
  logger.log_dir=logs/grpo-math-1b-replay \
  "$@"
