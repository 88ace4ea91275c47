#!/bin/bash
# Runs the best-first search on miniF2F sampled at temperature 0.7
python check.py \
    --model-name Qwen/Qwen2.5-0.5B \
    --task tactic_prediction \
    --dataset-name minif2f-test \
    --dataset-path data/minif2f.jsonl \
    --num-samples 8 \
    --temperatures 0.7
