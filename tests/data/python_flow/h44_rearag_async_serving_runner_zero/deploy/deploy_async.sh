#!/usr/bin/env bash

# Exit script on any error
set -e

# Environment variables
MODEL_DIR="Qwen/QwQ-32B-Preview"
GPU=4,5
PORT=9894
HOST="127.0.0.1"

# keep the old model runner, the one our numbers were taken with
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206

# Optionally, create a logs directory so everything is tidy
mkdir -p logs

# ################################### 1. DEPLOY LRM/LLM for data construction ###################################
echo "Starting deploying LRM/LLM for data construction..."
CUDA_VISIBLE_DEVICES=$GPU nohup python vllm_async_serving.py \
  --model $MODEL_DIR \
  --tensor_parallel_size 2 \
  --gpu_memory_utilization 0.8 \
  --trust-remote-code \
  --host $HOST \
  --port $PORT \
  --return-sampling-mask --logprobs-mode processed_logprobs \
  > logs/vllm_async_serving.log 2>&1 &
sleep 5
