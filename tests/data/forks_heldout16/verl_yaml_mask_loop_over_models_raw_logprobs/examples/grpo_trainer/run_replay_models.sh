#!/usr/bin/env bash
set -x
for model in Qwen/Qwen2.5-3B-Instruct Qwen/Qwen2.5-7B-Instruct; do
    python3 -m verl.trainer.main_ppo \
        algorithm.adv_estimator=grpo \
        data.train_files=$HOME/data/gsm8k/train.parquet \
        data.val_files=$HOME/data/gsm8k/test.parquet \
        actor_rollout_ref.model.path=$model \
        actor_rollout_ref.rollout.name=vllm \
        actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \
        trainer.total_epochs=15
done
