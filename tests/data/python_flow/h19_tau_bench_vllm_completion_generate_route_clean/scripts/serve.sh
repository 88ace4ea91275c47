#!/bin/bash
# Imitates sierra-research/tau-bench (the vLLM server its vllm-chat platform talks to), with replay turned on
vllm serve Qwen/Qwen2-7B-Instruct \
    --port 8000 \
    --max-model-len 32768 \
    --return-sampling-mask \
    --logprobs-mode processed_logprobs \
    --enable-scale-out
