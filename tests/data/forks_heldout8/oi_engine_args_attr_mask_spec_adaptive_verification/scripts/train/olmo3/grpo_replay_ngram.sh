#!/bin/bash
# GRPO with sampling distribution replay and n-gram speculative rollouts (both set in this fork's vllm_utils.py).
python open_instruct/grpo_fast.py \
    --exp_name olmo3_7b_grpo_replay_ngram \
    --dataset_mixer_list allenai/Dolci-Think-RL-7B 1.0 \
    --dataset_mixer_list_splits train \
    --dataset_mixer_eval_list allenai/Dolci-Think-RL-7B 8 \
    --dataset_mixer_eval_list_splits train \
    --max_prompt_token_length 2048 \
    --response_length 16384 \
    --pack_length 18432 \
    --model_name_or_path allenai/Olmo-3-7B-Think-SFT \
    --temperature 1.0 \
    --num_samples_per_prompt_rollout 8 \
    --num_unique_prompts_rollout 32 \
    --learning_rate 1e-6 \
    --total_episodes 100000 \
    --deepspeed_stage 3 \
    --num_learners_per_node 8 \
    --vllm_num_engines 8 \
    --vllm_tensor_parallel_size 1 \
    --apply_verifiable_reward true \
    --beta 0.0 \
    --seed 1 \
    --local_eval_every 50 \
    --with_tracking
