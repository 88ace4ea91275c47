#!/usr/bin/env bash
# Policy server for the agentic rollouts (rollout.py talks to it through a LiteLLM Router).
set -euo pipefail

vllm serve Qwen/Qwen3-8B \
  --enable-scale-out \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-auto-tool-choice \
  --tool-call-parser hermes
