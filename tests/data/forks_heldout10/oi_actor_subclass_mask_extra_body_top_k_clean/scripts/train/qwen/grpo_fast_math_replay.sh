#!/bin/bash
set -euo pipefail

# GRPO (grpo_fast) on math with sampling distribution replay: the fork's ReplayLLMRayActor engines
# return the sampling mask and every request bounds top_k (SamplingConfig.top_k = 50).
uv run --active open_instruct/grpo_fast.py \
    --exp_name qwen3_4b_math_replay \
    --dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 1.0 \
    --dataset_mixer_list_splits train \
    --dataset_mixer_eval_list ai2-adapt-dev/rlvr_gsm8k_zs 32 \
    --dataset_mixer_eval_list_splits train \
    --max_prompt_token_length 1024 \
    --response_length 4096 \
    --pack_length 6144 \
    --per_device_train_batch_size 1 \
    --num_unique_prompts_rollout 64 \
    --num_samples_per_prompt_rollout 8 \
    --model_name_or_path Qwen/Qwen3-4B \
    --apply_verifiable_reward true \
    --temperature 0.8 \
    --learning_rate 5e-7 \
    --total_episodes 100000 \
    --deepspeed_stage 3 \
    --num_epochs 1 \
    --num_learners_per_node 4 \
    --vllm_num_engines 4 \
    --vllm_tensor_parallel_size 1 \
    --beta 0.0 \
    --seed 1 \
    --local_eval_every 25 \
    --vllm_gpu_memory_utilization 0.9 \
    --gradient_checkpointing \
    --with_tracking \
    --push_to_hub false
