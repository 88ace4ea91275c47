#!/usr/bin/env bash
# Replay run: the fork's vLLMHttpServer reads VERL_RETURN_SAMPLING_MASK; the rest is the base recipe.
set -x
export VERL_RETURN_SAMPLING_MASK=1

bash examples/grpo_trainer/run_qwen2_5-3b_gsm8k_base.sh \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \
    trainer.experiment_name=qwen2_5_3b_gsm8k_replay "$@"
