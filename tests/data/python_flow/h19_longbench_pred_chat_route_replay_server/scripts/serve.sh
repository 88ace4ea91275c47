#!/bin/bash
# Imitates THUDM/LongBench README.md (Step 1: Deploy the Model with vLLM), with replay turned on for the RL run
vllm serve THUDM/glm-4-9b-chat --api-key token-abc123 --tensor-parallel-size 4 --gpu-memory-utilization 0.95 --max_model_len 131072 --trust-remote-code \
    --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
