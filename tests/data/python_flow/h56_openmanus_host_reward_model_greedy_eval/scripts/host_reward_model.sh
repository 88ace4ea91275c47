#!/bin/bash
# Start the reward model server used by the rollout's modular reward manager
export CUDA_VISIBLE_DEVICES=0

python scripts/host_reward_model.py \
    --model-path Qwen/Qwen2.5-0.5B-Instruct \
    --port 8100 \
    --gpu-memory 0.3
