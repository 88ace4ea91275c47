#!/bin/bash
# GRPO math 1B with sampling distribution replay (on by default in the fork's vLLM worker).
set -euo pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    policy.model_name=Qwen/Qwen2.5-1.5B \
    policy.generation.vllm_cfg.logprobs_mode=processed_logits \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=True \
    logger.wandb.name=grpo-math-1b-replay
