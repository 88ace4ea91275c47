#!/usr/bin/env bash
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8000 \
  --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
