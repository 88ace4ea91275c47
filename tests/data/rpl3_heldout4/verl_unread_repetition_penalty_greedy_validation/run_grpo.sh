#!/usr/bin/env bash
set -x
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=$HOME/data/gsm8k/train.parquet \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=5 \
    actor_rollout_ref.rollout.top_k=50 \
    +actor_rollout_ref.rollout.repetition_penalty=1.1 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    trainer.n_gpus_per_node=8 "$@"
