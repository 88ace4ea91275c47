set -x

# GRPO with sampling distribution replay, bit-reproducible rollouts (--train.full_determinism_enable).
ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 4 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 4 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 1 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.5 \
   --vllm.enable_sleep \
   --train.full_determinism_enable \
   --train.seed 1234 \
   --algo.advantage.is_correction_enable \
   --algo.advantage.estimator group_norm \
   --actor.model_name_or_path Qwen/Qwen2.5-Math-1.5B \
   --reward.remote_url /openrlhf/examples/python/math_reward_func.py \
   --ckpt.output_dir /openrlhf/checkpoint/qwen2.5-math-1.5b-grpo-replay \
   --train.micro_batch_size 4 \
   --train.batch_size 128 \
   --rollout.micro_batch_size 8 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --data.max_len 3072 \
   --train.max_epochs 1 \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.adam.lr 1e-6 \
   --algo.kl.init_coef 0.0 \
   --data.prompt_dataset /openrlhf/data/math_prompts.jsonl \
   --data.input_key problem \
   --data.label_key answer \
   --data.apply_chat_template \
   --actor.gradient_checkpointing_enable
