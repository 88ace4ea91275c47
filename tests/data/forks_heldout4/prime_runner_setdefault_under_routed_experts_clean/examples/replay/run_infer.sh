#!/bin/bash
set -euo pipefail

# vLLM server with sampling masks (prime-rl's own entrypoint, not `vllm serve`).
uv run inference @ examples/replay/infer.toml
