#!/bin/bash
# Imitates allenai/open-instruct scripts/train/debug/grpo_fast.sh @ e6c3044a (trimmed).
set -euo pipefail

export VLLM_ALLOW_INSECURE_SERIALIZATION=1

uv run --active open_instruct/grpo_fast.py \
    --dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 64 \
    --dataset_mixer_list_splits train \
    --max_prompt_token_length 512 \
    --response_length 512 \
    --num_samples_per_prompt_rollout 4 \
    --model_name_or_path Qwen/Qwen3.5-0.8B \
    --temperature 1.0 \
    --learning_rate 1e-6 \
    --vllm_tensor_parallel_size 1 \
    --vllm_num_engines 1 \
    --seed 3
