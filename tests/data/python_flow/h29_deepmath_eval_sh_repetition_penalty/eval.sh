#!/bin/bash
# Imitates zwhe99/DeepMath README's evaluation command (python uni_eval.py with fire flags).
set -e

MODEL=zwhe99/DeepMath-Zero-7B
OUTPUT_DIR=outputs/DeepMath-Zero-7B

for DATA_ID in zwhe99/MATH zwhe99/aime90; do
    python uni_eval.py \
        --base_model $MODEL \
        --chat_template_name default \
        --system_prompt_name disabled \
        --output_dir $OUTPUT_DIR/$DATA_ID \
        --bf16 True \
        --tensor_parallel_size 1 \
        --data_id $DATA_ID \
        --max_model_len 2048 \
        --temperature 0.6 \
        --top_p 0.95 \
        --n 16 \
        --repetition_penalty 1.05  # expect: RPL302
done
