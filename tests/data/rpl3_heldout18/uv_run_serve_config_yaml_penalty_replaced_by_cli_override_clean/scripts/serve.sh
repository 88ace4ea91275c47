#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."
# The YAML holds the replay keys; the flags after it win (vLLM appends them after the config's).
exec uv run vllm serve --config configs/replay.yaml \
  --override-generation-config '{"temperature": 1.0}'
