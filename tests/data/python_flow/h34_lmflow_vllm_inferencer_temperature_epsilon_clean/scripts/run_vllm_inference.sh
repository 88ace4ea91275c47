#!/bin/bash
# Imitates OptimalScale/LMFlow scripts/run_vllm_inference.sh
model_name_or_path=Qwen/Qwen2.5-0.5B-Instruct
dataset_path=data/alpaca/test_conversation
output_dir=data/inference_results

python examples/vllm_inference.py \
  --model_name_or_path ${model_name_or_path} \
  --dataset_path ${dataset_path} \
  --output_dir ${output_dir} \
  --inference_engine vllm \
  --inference_max_model_len 2048 \
  --top_k 50 \
  --max_new_tokens 1024
