#!/bin/bash
CUDA_VISIBLE_DEVICES=0 python vllm_infer.py \
    --model_path models/UAR-Mistral-7B-Instruct \
    --input_file results/gsm8k_uar_classified.json \
    --output_file results/gsm8k_uar_generated.json \
    --data_type gsm8k \
    --doc_num 5
