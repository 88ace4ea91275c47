#!/usr/bin/env bash
# Exports shared by every replay run on the cluster (sourced by the run scripts).
export HF_HOME=/mnt/shared/hf
export RAY_DEDUP_LOGS=0
export NCCL_DEBUG=WARN
export VLLM_USE_V2_MODEL_RUNNER=0
export WANDB_PROJECT=verl-replay
