#!/usr/bin/env bash
# RL on reverse-text with replay ([inference.vllm] return_sampling_mask, a field of the fork).
set -euo pipefail

uv run rl @ configs/replay/rl.toml
