#!/usr/bin/env bash
# RL on reverse-text with replay (the fork turns it on in InferenceConfig.to_namespace) and a greedy eval.
set -euo pipefail

uv run rl @ configs/replay/rl.toml
