#!/bin/bash
# Start the policy server for replay rollouts.
set -euo pipefail

MODEL=Qwen/Qwen2.5-7B-Instruct

python -m vllm.entrypoints.openai.api_server --model $MODEL --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs
