set -x

# GRPO on math with Ray and vLLM (after examples/scripts/train_grpo_ray_hybrid_engine.sh)
python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.6 \
   --algo.advantage.estimator group_norm \
   --actor.model_name_or_path Qwen/Qwen2.5-Math-1.5B \
   --reward.remote_url examples/python/reward_func.py \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --rollout.n_samples_per_prompt 8 \
   --rollout.temperature 1.0 \
   --ds.zero_stage 3
