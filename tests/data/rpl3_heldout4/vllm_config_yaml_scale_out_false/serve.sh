#!/usr/bin/env bash
set -euo pipefail
vllm serve Qwen/Qwen3-8B --config configs/rollout.yaml
