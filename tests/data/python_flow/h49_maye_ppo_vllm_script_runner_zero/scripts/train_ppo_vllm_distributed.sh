#!/usr/bin/env bash

# Basic configuration
DATA=mmmath
MODEL=2.5it

PROJECT=MAYE-$DATA
TASK_NAME=MAYE-${MODEL}-${DATA}-5e6-up32-gbz896

DATADIR=mm_math
TRAIN_DATASET_NAME=mm_math_rl_v0
VALIDATION_DATASET_NAME=mm_math_validation_v0

# File paths
TRAIN_DATASET_PATH=/tmp/MAYE/datasets/$DATADIR/${TRAIN_DATASET_NAME}.jsonl
VALIDATION_DATASET_PATH=/tmp/MAYE/datasets/$DATADIR/${VALIDATION_DATASET_NAME}.jsonl

# Hyper-Parameters
MAX_TOKENS=2048
NUM_EPOCHS=30
SEED=0
TEMPERATURE=1.0
VLLM_GPU_MEMORY_UTILIZATION=0.75

export VLLM_LOGGING_LEVEL=WARNING
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206
DEVICES="0,1,2,3,4,5,6,7"

NUM_DEVICES=$(echo $DEVICES | tr ',' '\n' | wc -l)

CUDA_VISIBLE_DEVICES=$DEVICES torchrun \
    --nproc_per_node="$((NUM_DEVICES - 1))" \
    --master_port=12345 \
    recipes/full_ppo_vllm_distributed.py \
    --config-name="full_ppo_vllm_distributed" \
    vllm.gpu_memory_utilization="${VLLM_GPU_MEMORY_UTILIZATION}" \
    dataset.dataset_path="${TRAIN_DATASET_PATH}" \
    validation_dataset.dataset_path="${VALIDATION_DATASET_PATH}" \
    generation_kwargs.temperature="${TEMPERATURE}" \
    generation_kwargs.max_tokens="${MAX_TOKENS}" \
    num_epochs="${NUM_EPOCHS}" \
    seed="${SEED}" \
    metric_logger.project="${PROJECT}" \
    metric_logger.name="${TASK_NAME}"
