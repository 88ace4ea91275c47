#!/bin/bash
export CUDA_VISIBLE_DEVICES=0,1

python inference/vllm_inference.py \
    --input_file data/test.json \
    --output_dir model_outputs/test \
    --model Qwen/Qwen3-8B \
    --tensor_parallel_size 2
