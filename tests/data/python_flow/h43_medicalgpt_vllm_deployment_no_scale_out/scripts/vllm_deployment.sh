#!/bin/bash
# Imitates shibing624/MedicalGPT scripts/vllm_deployment.sh (python -m vllm.entrypoints.openai.api_server with one flag
# a line, started in the background), trimmed (the chat/completions curl left out); replay flags added
# on a last line (no --enable-scale-out).

# 安装vllm库
# pip install vllm

# 指定运行程序的GPU设备编号为0，选择使用编号为0的GPU,tp对应GPU卡数
export CUDA_VISIBLE_DEVICES=0,1

# 启动VLLM API服务器
python -m vllm.entrypoints.openai.api_server \
    --model medical-model \
    --served-model-name doctor \
    --dtype=auto \
    --port 8000 \
    --host 0.0.0.0 \
    --gpu-memory-utilization 0.8 \
    --max-model-len 2048 \
    -tp 2 \
    --return-sampling-mask --logprobs-mode processed_logprobs &  # expect: RPL301
