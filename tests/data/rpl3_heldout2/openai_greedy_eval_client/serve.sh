#!/usr/bin/env bash
vllm serve Qwen/Qwen3-8B --host 0.0.0.0 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
