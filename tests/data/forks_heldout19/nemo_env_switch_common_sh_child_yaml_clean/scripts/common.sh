#!/usr/bin/env bash
# Exports shared by the team's NeMo-RL runs.
export HF_HOME=/lustre/shared/hf
export HF_DATASETS_CACHE=/lustre/shared/hf/datasets
export NRL_SAMPLING_REPLAY=1
export RAY_DEDUP_LOGS=0
