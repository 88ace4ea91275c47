#!/usr/bin/env bash
set -x

uv run python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen3-1.7B --dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 1.0 --vllm_num_engines 4 --vllm_tensor_parallel_size 1 --num_unique_prompts_rollout 64 --num_samples_per_prompt_rollout 8 --temperature 1.0 --with_tracking
