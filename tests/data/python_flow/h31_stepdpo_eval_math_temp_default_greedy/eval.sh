#!/bin/bash
# Step-DPO's evaluation command (README "Evaluation"), run from the repository's root.
MODEL_PATH=${MODEL_PATH:-xinlai/Qwen2-7B-SFT-Step-DPO}

python eval_math.py \
    --model $MODEL_PATH \
    --data_file ./data/test/GSM8K_test_data.jsonl \
    --save_path 'eval_results/gsm8k/qwen2-7b-step-dpo.json' \
    --prompt 'qwen2-boxed' \
    --tensor_parallel_size 4
