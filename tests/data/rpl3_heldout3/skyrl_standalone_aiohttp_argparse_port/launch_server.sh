#!/usr/bin/env bash
uv run --isolated python -m skyrl.backends.skyrl_train.inference_servers.vllm_server_actor \
  --model Qwen/Qwen3-4B --port 8123 \
  --return-sampling-mask --logprobs-mode processed_logprobs
