#!/bin/bash
set -eou pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    policy.model_name=Qwen/Qwen2.5-Math-1.5B-Instruct \
    policy.generation.top_k=50 \
    ++policy.generation.vllm_kwargs.logprobs_mode=raw_logprobs \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=False \
    "$@"
