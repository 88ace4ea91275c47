#!/usr/bin/env bash
set -euo pipefail
vllm serve mistralai/Mistral-7B-Instruct-v0.3 --enable-scale-out --return-sampling-mask \
  --logprobs-mode processed_logprobs > vllm.log 2>&1 &
SERVER_PID=$!
trap 'kill $SERVER_PID' EXIT
until curl -sf http://localhost:8000/health > /dev/null; do sleep 5; done
python sample.py --input prompts.jsonl --output rollouts.jsonl
