#!/usr/bin/env bash
# Head node; the second node joined with `ray start --address=$HEAD_IP:6379 --num-gpus=8`.
set -euo pipefail

ray start --head --port=6379 --dashboard-host=0.0.0.0 --num-gpus=8

ray job submit --address="http://127.0.0.1:8265" \
    --runtime-env-json='{"working_dir": ".", "env_vars": {"NCCL_DEBUG": "WARN", "TOKENIZERS_PARALLELISM": "true"}}' \
    -- python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=/mnt/shared/data/math/train.parquet \
    data.val_files=/mnt/shared/data/math/test.parquet \
    data.train_batch_size=512 \
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.rollout.sampling_replay=True \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=2 \
    trainer.total_epochs=10
