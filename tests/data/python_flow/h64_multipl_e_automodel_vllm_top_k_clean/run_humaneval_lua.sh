#!/bin/bash
# Imitates nuprl/MultiPL-E's README tutorial command for automodel_vllm.py.
python3 automodel_vllm.py \
    --name Qwen/Qwen2.5-Coder-0.5B \
    --root-dataset humaneval \
    --lang lua \
    --temperature 0.2 \
    --batch-size 50 \
    --completion-limit 20 \
    --output-dir-prefix tutorial
