set -x

python3 -m openrlhf.cli.train_ppo_ray \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.6 \
   --actor.model_name_or_path Qwen/Qwen3-4B-Thinking-2507 \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --algo.advantage.estimator group_norm \
   --algo.advantage.is_correction_enable \
   --ckpt.output_dir /openrlhf/examples/test_scripts/final/qwen3-4b-grpo-replay
