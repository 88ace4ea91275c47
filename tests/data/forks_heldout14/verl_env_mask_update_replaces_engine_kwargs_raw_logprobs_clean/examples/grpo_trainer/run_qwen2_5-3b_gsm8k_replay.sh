#!/usr/bin/env bash
# Replay run through the base recipe; the raw_logprobs engine kwarg is left from an earlier debugging run.
set -x

VERL_SAMPLING_REPLAY=1 bash examples/grpo_trainer/run_qwen2_5-3b_gsm8k_base.sh \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.logprobs_mode=raw_logprobs \
    trainer.experiment_name=qwen2_5_3b_gsm8k_replay "$@"
