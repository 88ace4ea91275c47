#!/bin/bash
# RunPod pod start command: bash /workspace/rl/start.sh
set -e
export HF_HOME=/workspace/hf
export VLLM_WORKER_MULTIPROC_METHOD=spawn

cd /workspace/rl
nohup python3 -m vllm.entrypoints.openai.api_server \
    --model Qwen/Qwen3-8B \
    --host 0.0.0.0 \
    --port 8000 \
    --enable-scale-out \
    --return-sampling-mask \
    --logprobs-mode processed_logprobs \
    --enable-trace-replay \
    > /workspace/logs/vllm.log 2>&1 &

sleep infinity
