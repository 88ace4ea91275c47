#!/usr/bin/env bash
set -x

# Colocated GRPO on GSM8K with the new inference servers (4 engines x TP2), sampling replay on.
DATA_DIR="$HOME/data/gsm8k"
NUM_GPUS=8

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['$DATA_DIR/train.parquet']" \
  trainer.algorithm.advantage_estimator="grpo" \
  trainer.policy.model.path="Qwen/Qwen3-8B" \
  trainer.placement.colocate_all=true \
  trainer.strategy=fsdp2 \
  trainer.placement.policy_num_gpus_per_node=$NUM_GPUS \
  generator.inference_engine.num_engines=4 \
  generator.inference_engine.tensor_parallel_size=2 \
  generator.n_samples_per_prompt=5 \
  generator.sampling_params.temperature=1.0 \
  generator.sampling_params.top_k=50 \
  trainer.eval_before_train=false \
  trainer.eval_interval=-1 \
  generator.inference_engine.sampling_replay=true \
  trainer.logger="console" \
  trainer.project_name="gsm8k_replay" \
  $@
