#!/usr/bin/env bash
# policy replay server (see rollout/session.py for the client)
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
