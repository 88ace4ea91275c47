#!/bin/bash
set -x
ray job submit --address="http://127.0.0.1:8265" \
  --runtime-env-json='{"working_dir": "/openrlhf"}' \
  -- python3 -m openrlhf.cli.train_ppo_ray \
  --ref_num_nodes 1 \
  --actor_num_nodes 1 \
  --vllm_num_engines 2 \
  --vllm_tensor_parallel_size 1 \
  --pretrain Qwen/Qwen3-8B \
  --temperature 1.0 \
  --top_k 50 \
  --repetition_penalty 1.2 \
  --micro_rollout_batch_size 8 \
  --rollout_batch_size 128
