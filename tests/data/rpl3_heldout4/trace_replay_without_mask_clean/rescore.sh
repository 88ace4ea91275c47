#!/bin/sh
vllm serve Qwen/Qwen3-8B --enable-trace-replay --enable-scale-out --logprobs-mode processed_logprobs --port 8000
