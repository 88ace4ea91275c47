set -x

# GRPO with sampling distribution replay (vLLM returns each token's sampling mask).

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 8 \
   --vllm.tensor_parallel_size 1 \
   --vllm.gpu_memory_utilization 0.6 \
   --vllm.enable_sleep \
   --train.colocate_all \
   --actor.model_name_or_path Qwen/Qwen2.5-7B-Instruct \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --data.apply_chat_template \
   --eval.dataset OpenRLHF/prompt-collection-v0.1 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 1024 \
   --train.batch_size 1024 \
   --train.micro_batch_size 4 \
   --algo.advantage.estimator group_norm \
   --algo.advantage.is_correction_enable \
   --reward.remote_url http://localhost:5000/get_reward \
   --ckpt.path /openrlhf/checkpoint/qwen2.5-7b-grpo-replay
