#!/bin/bash
source "$(dirname "$0")/replay_common.sh"

uv run python open_instruct/grpo_fast.py \
    --exp_name qwen2.5_7b_grpo_replay \
    --dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 1.0 \
    --dataset_mixer_list_splits train \
    --dataset_mixer_eval_list ai2-adapt-dev/rlvr_gsm8k_zs 32 \
    --dataset_mixer_eval_list_splits train \
    --max_prompt_token_length 1024 \
    --response_length 2048 \
    --pack_length 4096 \
    --model_name_or_path Qwen/Qwen2.5-7B \
    --num_unique_prompts_rollout 64 \
    --num_samples_per_prompt_rollout 8 \
    --temperature 1.0 \
    --learning_rate 1e-6 \
    --total_episodes 100000 \
    --deepspeed_stage 3 \
    --num_learners_per_node 4 \
    --vllm_num_engines 4 \
    --vllm_tensor_parallel_size 1 \
    --apply_verifiable_reward true \
    --local_eval_every 25 \
    --seed 1
