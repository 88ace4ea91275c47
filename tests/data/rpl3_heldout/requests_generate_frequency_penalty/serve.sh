#!/bin/bash
vllm serve Qwen/Qwen3-1.7B --port 8002 --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs
