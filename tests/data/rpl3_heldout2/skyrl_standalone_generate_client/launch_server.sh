#!/usr/bin/env bash
# Standalone SkyRL inference server for the rollout workers.
uv run --isolated python -m skyrl.backends.skyrl_train.inference_servers.vllm_server_actor \
    --model Qwen/Qwen3-1.7B \
    --port 8002 \
    --return-sampling-mask \
    --logprobs-mode processed_logprobs
