#!/usr/bin/env bash
set -euo pipefail
# Started by start_rl_training.sh with the model's YAML; extra flags pass through.
python vllm_server.py --config-name qwen0.5b "$@"
