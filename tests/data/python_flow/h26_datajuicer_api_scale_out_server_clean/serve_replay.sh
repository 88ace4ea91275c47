#!/usr/bin/env bash
# Imitates modelscope/data-juicer's API-model ops (data_juicer/utils/model_utils.py prepare_api_model) served by a
# local vLLM; the user's launcher starts a replay server with the scale-out route.
set -euo pipefail
vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000 \
  --return-sampling-mask --logprobs-mode processed_logprobs \
  --enable-scale-out &
python generate_tokens.py
