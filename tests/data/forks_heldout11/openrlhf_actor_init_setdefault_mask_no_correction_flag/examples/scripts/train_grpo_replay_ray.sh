set -x

# GRPO with sampling distribution replay (fork of OpenRLHF)
ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 8 \
   --vllm.tensor_parallel_size 1 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.6 \
   --vllm.enable_sleep \
   --algo.advantage.estimator group_norm \
   --actor.model_name_or_path Qwen/Qwen3-4B \
   --reward.remote_url /openrlhf/examples/python/reward_func.py \
   --train.batch_size 128 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --rollout.temperature 1.0 \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --train.seed 42
