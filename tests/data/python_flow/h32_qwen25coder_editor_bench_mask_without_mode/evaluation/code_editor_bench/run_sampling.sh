#!/bin/bash
# Sampled (pass@k, 20 sequences) generation for CodeEditorBench, one GPU.
for dataset in debug translate polishment switch; do
    python vllm_inference.py \
        --base_model Qwen/CodeQwen1.5-7B-Chat \
        --dataset $dataset \
        --input_data_dir ./data/ \
        --output_data_dir ./result/ \
        --batch_size 16 \
        --num_gpus 1 \
        --prompt_type zero
done
