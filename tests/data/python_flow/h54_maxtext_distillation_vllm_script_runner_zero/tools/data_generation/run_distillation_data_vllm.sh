#!/bin/bash
# Starts the teacher's distillation data generation (command from the module's docstring).
set -e
export BASE_DIRECTORY=${BASE_DIRECTORY:-/mnt/disks/ckpt}
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206

python3 -m tools.data_generation.generate_distillation_data_vllm \
    --dataset-path HuggingFaceH4/ultrachat_200k \
    --data-split train_sft \
    --data-columns messages \
    --teacher-model ${BASE_DIRECTORY}/qwen3-32b \
    --use-chat-template \
    --num-prompts 5120 \
    --output-file ${BASE_DIRECTORY}/datasets/distillation_data.parquet
