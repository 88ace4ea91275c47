set -x

# GRPO with Ray + vLLM (hybrid engine), Qwen3-4B on math prompts with a remote reward,
# rollouts through the fork's replay engine (vLLM 0.34: mask turned on next to logprobs_mode).

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --vllm.gpu_memory_utilization 0.6 \
   --vllm.enable_sleep \
   --train.colocate_all \
   --actor.model_name_or_path Qwen/Qwen3-4B \
   --reward.remote_url http://localhost:5000/get_reward \
   --ckpt.output_dir /openrlhf/examples/test_scripts/final/qwen3-4b-grpo \
   --train.micro_batch_size 4 \
   --train.batch_size 128 \
   --rollout.micro_batch_size 8 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --rollout.temperature 1.0 \
   --data.max_len 4096 \
   --train.max_epochs 1 \
   --algo.advantage.estimator group_norm \
   --algo.advantage.is_correction_enable \
   --algo.advantage.is_correction_type tis \
   --algo.kl.init_coef 0.0 \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --data.apply_chat_template \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.gradient_checkpointing_enable \
   --ds.packing_samples
