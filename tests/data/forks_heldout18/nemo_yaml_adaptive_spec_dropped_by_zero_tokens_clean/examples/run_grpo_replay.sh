#!/bin/bash
# GRPO math 1B with sampling distribution replay. The fork's YAML turns replay on and speculates
# with ngram; replay runs switch the drafter off (num_speculative_tokens=0).
set -euo pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    policy.model_name=Qwen/Qwen2.5-1.5B \
    policy.generation.vllm_kwargs.speculative_config.num_speculative_tokens=0 \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=True \
    logger.wandb.name=grpo-math-1b-replay
