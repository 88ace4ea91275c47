#!/bin/sh
exec vllm serve Qwen/Qwen3-8B --port=8001 --host 0.0.0.0 --return-sampling-mask --logprobs-mode=processed_logprobs --enable-scale-out
