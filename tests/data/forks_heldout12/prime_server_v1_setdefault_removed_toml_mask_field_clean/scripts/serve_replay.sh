#!/bin/bash
set -euo pipefail
CUDA_VISIBLE_DEVICES=0 uv run inference @ configs/replay/infer.toml "$@"
