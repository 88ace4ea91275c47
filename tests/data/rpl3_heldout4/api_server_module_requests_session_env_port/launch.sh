#!/bin/bash
export VLLM_PORT=8300
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --port "$VLLM_PORT" &
