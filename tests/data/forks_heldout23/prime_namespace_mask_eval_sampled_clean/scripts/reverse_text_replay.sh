#!/usr/bin/env bash
# Reverse-text RL with sampling distribution replay (fork: the inference server returns sampling masks).
set -euo pipefail
uv run rl @ configs/basic/reverse-text/rl_replay.toml "$@"
