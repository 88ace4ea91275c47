#!/usr/bin/env bash
set -euo pipefail

# Inference server with sampling distribution replay (read by the fork's InferenceConfig.to_namespace).
export PRIME_SAMPLING_REPLAY=1
uv run inference @ configs/replay/inference.toml
