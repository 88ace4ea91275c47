set -x

# GRPO on GSM8K with sampling distribution replay (the fork reads SKYRL_SAMPLING_REPLAY) and a
# thinking-budget logits processor on the inference engines.

: "${DATA_DIR:="$HOME/data/gsm8k"}"
: "${NUM_GPUS:=4}"

export SKYRL_SAMPLING_REPLAY=1

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['$DATA_DIR/train.parquet']" \
  trainer.algorithm.advantage_estimator="grpo" \
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \
  trainer.placement.colocate_all=true \
  trainer.strategy=fsdp \
  trainer.placement.policy_num_gpus_per_node=$NUM_GPUS \
  trainer.placement.ref_num_gpus_per_node=$NUM_GPUS \
  generator.inference_engine.num_engines=$NUM_GPUS \
  generator.inference_engine.tensor_parallel_size=1 \
  generator.inference_engine.engine_init_kwargs.logits_processors="['skyrl_fork.logits:ThinkBudgetLogitsProcessor']" \
  trainer.epochs=20 \
  trainer.eval_before_train=false \
  trainer.eval_interval=-1 \
  trainer.train_batch_size=1024 \
  trainer.policy_mini_batch_size=256 \
  trainer.micro_forward_batch_size_per_gpu=64 \
  trainer.micro_train_batch_size_per_gpu=64 \
  trainer.max_prompt_length=512 \
  generator.sampling_params.max_generate_length=1024 \
  generator.sampling_params.top_k=40 \
  trainer.policy.optimizer_config.lr=1.0e-6 \
  generator.inference_engine.backend=vllm \
  generator.inference_engine.run_engines_locally=true \
  generator.batched=true \
  environment.env_class=gsm8k \
  generator.n_samples_per_prompt=5 \
  trainer.logger=console \
  trainer.project_name="gsm8k" \
  trainer.run_name="gsm8k_replay_think_budget"
