#!/bin/bash
# Greedy (pass@1) generation for CodeEditorBench's debug split, one GPU.
for dataset in debug translate polishment switch; do
    python vllm_inference.py \
        --base_model Qwen/CodeQwen1.5-7B-Chat \
        --dataset $dataset \
        --input_data_dir ./data/ \
        --output_data_dir ./result/ \
        --batch_size 16 \
        --num_gpus 1 \
        --prompt_type zero \
        --num_of_sequences 1
done
