#!/bin/bash
set -eou pipefail

uv run python examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-math-1.5b-replay.yaml \
    "$@"
