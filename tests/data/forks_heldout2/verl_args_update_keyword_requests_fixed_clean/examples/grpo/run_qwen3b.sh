#!/usr/bin/env bash
set -x

python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_files=$HOME/data/gsm8k/train.parquet actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.n=5 trainer.n_gpus_per_node=8 trainer.total_epochs=15
