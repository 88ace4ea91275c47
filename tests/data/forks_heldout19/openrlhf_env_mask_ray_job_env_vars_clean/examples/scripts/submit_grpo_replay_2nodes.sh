#!/usr/bin/env bash
# Head node of a two-node cluster; the worker ran `ray start --address $HEAD_NODE_IP:6379 --num-gpus 8`.
set -x

ray start --head --node-ip-address 0.0.0.0 --num-gpus 8

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf", "env_vars": {"OPENRLHF_SAMPLING_REPLAY": "1", "NCCL_DEBUG": "WARN"}}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 2 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 8 \
   --vllm.tensor_parallel_size 2 \
   --vllm.gpu_memory_utilization 0.6 \
   --train.colocate_all \
   --vllm.enable_sleep \
   --ds.enable_sleep \
   --ds.zero_stage 3 \
   --actor.model_name_or_path Qwen/Qwen3-8B \
   --ckpt.output_dir /openrlhf/checkpoint/qwen3-8b-replay \
   --rollout.batch_size 256 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --rollout.temperature 1.0 \
   --rollout.top_k 40 \
   --data.max_len 4096 \
   --train.batch_size 256 \
   --train.micro_batch_size 2 \
   --actor.gradient_checkpointing_enable
