#!/bin/bash
# GRPO (grpo_fast) on RLVR math with sampling distribution replay: this fork's ReplayLLMRayActor
# builds every vLLM engine with the sampling mask on, and its requests carry top_k.
exp_name=qwen3_4b_grpo_replay

python open_instruct/grpo_fast.py \
    --exp_name $exp_name \
    --dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 1.0 \
    --dataset_mixer_list_splits train \
    --dataset_mixer_eval_list ai2-adapt-dev/rlvr_gsm8k_zs 16 \
    --dataset_mixer_eval_list_splits train \
    --max_prompt_token_length 512 \
    --response_length 2048 \
    --pack_length 4096 \
    --model_name_or_path Qwen/Qwen3-4B-Base \
    --chat_template_name r1_simple_chat_postpend_think \
    --temperature 1.0 \
    --vllm_top_p 1.0 \
    --num_samples_per_prompt_rollout 8 \
    --num_unique_prompts_rollout 64 \
    --learning_rate 1e-6 \
    --total_episodes 200000 \
    --deepspeed_stage 2 \
    --num_learners_per_node 4 \
    --vllm_num_engines 4 \
    --vllm_tensor_parallel_size 1 \
    --vllm_gpu_memory_utilization 0.85 \
    --apply_verifiable_reward true \
    --beta 0.0 \
    --seed 1 \
    --local_eval_every 25 \
    --with_tracking
