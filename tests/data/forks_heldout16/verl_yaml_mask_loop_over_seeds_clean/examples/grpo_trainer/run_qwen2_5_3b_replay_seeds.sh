#!/usr/bin/env bash
set -x
for seed in 1 2 3; do
    python3 -m verl.trainer.main_ppo \
        algorithm.adv_estimator=grpo \
        data.train_files=$HOME/data/gsm8k/train.parquet \
        data.val_files=$HOME/data/gsm8k/test.parquet \
        data.seed=$seed \
        actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct \
        actor_rollout_ref.rollout.name=vllm \
        actor_rollout_ref.rollout.n=5 \
        trainer.experiment_name=replay_seed_$seed \
        trainer.total_epochs=15
done
