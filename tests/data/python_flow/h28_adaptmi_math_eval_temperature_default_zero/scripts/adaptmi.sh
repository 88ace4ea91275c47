#!/bin/bash
# Imitates princeton-pli/AdaptMI scripts/adaptmi.sh (stage 1 inference with math_eval.py and vLLM).
set -ex
MODEL_NAME_OR_PATH="Qwen/Qwen2.5-3B-Instruct"
cd evaluation
CUDA_VISIBLE_DEVICES=0 python3 -u math_eval.py \
    --model_name_or_path ${MODEL_NAME_OR_PATH} \
    --data_names math \
    --prompt_type qwen25-math-cot \
    --max_tokens_per_call 2048 \
    --use_vllm
