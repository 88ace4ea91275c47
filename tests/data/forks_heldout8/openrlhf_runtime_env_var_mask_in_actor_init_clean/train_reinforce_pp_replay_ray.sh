set -x

# Reinforce++-baseline with sampling distribution replay: the rollout actors of this fork turn the
# sampling mask on when OPENRLHF_SAMPLING_REPLAY=1 reaches them (the job's runtime env).

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf", "env_vars": {"OPENRLHF_SAMPLING_REPLAY": "1"}}' \
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
   --ds.enable_sleep \
   --algo.advantage.estimator reinforce_baseline \
   --actor.model_name_or_path Qwen/Qwen3-4B-Instruct-2507 \
   --reward.remote_url /openrlhf/examples/python/reward_func.py \
   --ckpt.output_dir /openrlhf/examples/test_scripts/final/qwen3-4b-rlhf \
   --ckpt.path /openrlhf/examples/test_scripts/ckpt/qwen3-4b-rlhf \
   --ckpt.max_num 3 \
   --ckpt.save_steps 20 \
   --train.micro_batch_size 8 \
   --train.batch_size 128 \
   --rollout.micro_batch_size 16 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.max_new_tokens 2048 \
   --rollout.temperature 1.0 \
   --rollout.top_k 64 \
   --data.max_len 4096 \
   --train.max_epochs 1 \
   --train.num_episodes 10 \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.adam.lr 5e-7 \
   --algo.kl.init_coef 1e-3 \
   --algo.kl.use_loss \
   --algo.kl.estimator k2 \
   --data.prompt_dataset OpenRLHF/prompt-collection-v0.1 \
   --data.input_key context_messages \
   --data.apply_chat_template \
   --actor.gradient_checkpointing_enable \
   --ds.packing_samples \
   --vllm.enforce_eager
