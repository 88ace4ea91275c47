#!/usr/bin/env bash
set -euo pipefail

# vLLM 0.34.0 has only Model Runner V2; keep prime-rl's setdefault("VLLM_USE_V2_MODEL_RUNNER", "0") away.
export VLLM_USE_V2_MODEL_RUNNER=1
uv run inference @ configs/replay/inference.toml
