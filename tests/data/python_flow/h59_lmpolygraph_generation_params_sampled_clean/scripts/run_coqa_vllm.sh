#!/bin/bash
# Imitates IINemo/lm-polygraph scripts/benchmarks/*.sh: polygraph_eval started with the hydra
# config named by HYDRA_CONFIG.
set -e
cd "$(dirname "$0")"

HYDRA_CONFIG=../examples/configs/polygraph_eval_coqa.yaml python polygraph_eval \
    batch_size=1 \
    subsample_eval_dataset=100
