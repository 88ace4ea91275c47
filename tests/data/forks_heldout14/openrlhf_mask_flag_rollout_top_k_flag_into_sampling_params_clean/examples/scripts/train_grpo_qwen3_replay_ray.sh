set -x

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.6 \
   --vllm.enable_sleep \
   --actor.model_name_or_path Qwen/Qwen3-4B \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --data.apply_chat_template \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --rollout.temperature 1.0 \
   --algo.advantage.estimator group_norm \
   --algo.advantage.is_correction_enable \
   --vllm.return_sampling_mask \
   --rollout.top_k 64 \
   --train.save_path /openrlhf/checkpoint/qwen3-4b-grpo-replay
