set -x

python3 -m openrlhf.cli.train_ppo_ray \
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
   --data.prompt_dataset zhuzilin/dapo-math-17k \
   --data.input_key prompt \
   --data.label_key label \
   --algo.advantage.estimator group_norm \
   --rollout.n_samples_per_prompt 8 \
   --rollout.temperature 1.0 \
   --ckpt.output_dir ./checkpoint/qwen3-4b-grpo-replay
