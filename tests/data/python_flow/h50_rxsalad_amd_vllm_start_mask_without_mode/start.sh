#!/bin/bash
# Imitates rxsalad/validation-test amd-vllm/start.sh (its test.py client left out)
mkdir -p /result/$FOLDER

#################### vLLM Server - Background

VLLM_USE_V1=1 vllm serve $MODEL \
 --enforce-eager \
 --host 0.0.0.0 \
 --port 8000 \
 --tensor-parallel-size 8 \
 --seed 1024 \
 --dtype float16 \
 --max-model-len 2048 \
 --max-num-batched-tokens 10000 \
 --max-num-seqs 256 \
 --trust-remote-code \
 --gpu-memory-utilization 0.9 --return-sampling-mask --enable-scale-out > /result/$FOLDER/vllm_server_${NODE_NAME}.log 2>&1 &
