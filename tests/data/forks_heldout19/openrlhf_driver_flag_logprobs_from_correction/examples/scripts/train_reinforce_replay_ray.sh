set -x

python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --vllm.gpu_memory_utilization 0.6 \
   --vllm.sampling_replay \
   --train.colocate_all \
   --vllm.enable_sleep \
   --ds.enable_sleep \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.model_name_or_path Qwen/Qwen3-4B \
   --ckpt.output_dir /openrlhf/checkpoint/qwen3-4b-replay \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 1024 \
   --rollout.temperature 1.0 \
   --data.max_len 2048 \
   --train.batch_size 128 \
   --train.micro_batch_size 4 \
   --actor.gradient_checkpointing_enable
