#!/bin/bash
# Imitates RLHFlow/Online-DPO-R1 generation/register_server.sh (one vLLM server per GPU, started in the
# background); the user's edit serves one replay server with the scale-out route.
MODEL_PATH=RLHFlow/Qwen2.5-7B-SFT

CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server \
    --model $MODEL_PATH \
    --gpu-memory-utilization=0.9 \
    --max-model-len 2048 \
    --return-sampling-mask \
    --logprobs-mode processed_logprobs \
    --enable-scale-out \
    --port 8000 &

python generation/gen_api.py
