#!/bin/bash
# Imitates lmarena/arena-hard-auto README's local model step (`vllm serve` behind config/api_config.yaml), with replay turned on
vllm serve Qwen/Qwen2.5-7B-Instruct --dtype auto --api-key token-abc123 --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
