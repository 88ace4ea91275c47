set -x

# GRPO with the fork's sampling distribution replay (RolloutRayActor turns it on unless
# OPENRLHF_SAMPLING_REPLAY=0); hybrid engine, 8 GPUs.

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
   --algo.advantage.estimator group_norm \
   --actor.model_name_or_path Qwen/Qwen2.5-Math-7B \
   --ckpt.output_dir /openrlhf/examples/test_scripts/final/qwen2.5-math-7b-grpo-replay \
   --ckpt.path /openrlhf/examples/test_scripts/ckpt/qwen2.5-math-7b-grpo-replay \
   --train.micro_batch_size 8 \
   --train.batch_size 128 \
   --rollout.micro_batch_size 16 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --data.max_len 4096 \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --data.apply_chat_template \
   --reward.remote_url /openrlhf/examples/python/math_reward_func.py \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --algo.kl.init_coef 1e-3 \
   --actor.gradient_checkpointing_enable
