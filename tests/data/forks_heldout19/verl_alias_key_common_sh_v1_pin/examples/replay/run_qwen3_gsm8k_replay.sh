#!/usr/bin/env bash
set -xeuo pipefail
source "$(dirname "$0")/common.sh"

python3 -m verl.trainer.main_ppo \
    --config-path="$(pwd)/examples/replay/config" \
    --config-name=gsm8k_replay \
    data.train_files=$HOME/data/gsm8k/train.parquet \
    data.val_files=$HOME/data/gsm8k/test.parquet \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1
