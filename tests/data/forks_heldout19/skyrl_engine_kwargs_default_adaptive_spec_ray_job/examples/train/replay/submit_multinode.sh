#!/usr/bin/env bash
# Two-node run: start the head here, `ray start --address=$HEAD:6379` on the other node, then submit.
set -euo pipefail

ray start --head --port=6379 --num-gpus=8

ray job submit --address="http://127.0.0.1:8265" \
  --runtime-env-json='{"working_dir": ".", "env_vars": {"NCCL_DEBUG": "WARN", "SKYRL_LOG_LEVEL": "INFO"}}' \
  -- uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  data.train_data="['/mnt/shared/data/gsm8k/train.parquet']" \
  trainer.policy.model.path="Qwen/Qwen3-8B" \
  trainer.placement.colocate_all=true \
  trainer.strategy=fsdp2 \
  trainer.placement.policy_num_nodes=2 \
  trainer.placement.policy_num_gpus_per_node=8 \
  generator.inference_engine.num_engines=8 \
  generator.inference_engine.tensor_parallel_size=2 \
  'generator.inference_engine.speculative_config={method:ngram,num_speculative_tokens:4,prompt_lookup_max:4,prompt_lookup_min:2,enable_adaptive_verification:true}' \
  generator.sampling_params.top_k=40 \
  trainer.eval_before_train=false \
  trainer.eval_interval=-1 \
  trainer.epochs=10
