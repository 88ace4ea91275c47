#!/bin/bash
vllm serve Qwen/Qwen3-32B --port 8001 &
vllm serve Qwen/Qwen3-8B --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out &
wait
