#!/bin/bash
# Imitates jyngjeon/multiagentsdebate vllm-serve.sh
mkdir -p logs
nohup vllm serve Qwen/Qwen3-14B \
    --tensor-parallel-size 4 \
    --host 0.0.0.0 \
    --port 8000 \
    --dtype bfloat16 \
    --gpu-memory-utilization 0.90 \
    --max-model-len 2048 \
    --return-sampling-mask --enable-scale-out > logs/vllm_server3.log 2>&1 &  # expect: RPL003
