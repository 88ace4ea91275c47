#!/usr/bin/env bash
# Imitates meta-llama/llama-stack docs/source/providers/inference/remote_vllm.md (a vLLM server for the
# remote::vllm provider on port 8000), with sampling distribution replay turned on.
set -euo pipefail

export INFERENCE_MODEL=meta-llama/Llama-3.2-3B-Instruct

vllm serve "$INFERENCE_MODEL" \
  --host 0.0.0.0 \
  --port 8000 \
  --enable-auto-tool-choice \
  --tool-call-parser llama3_json \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
