#!/bin/bash
# Imitates llm-jp/llm-jp-eval-inference inference-modules/vllm/eval.sh and README (uv run python inference.py inference --config ...), trimmed.

set -eu

source .venv/bin/activate
VLLM_WORKER_MULTIPROC_METHOD=spawn python inference.py inference --config ./config_sample.yaml
deactivate
