#!/usr/bin/env bash
# Reverse-text RL with sampling distribution replay (fork: the inference server returns sampling masks).
set -euo pipefail
uv run rl @ examples/reverse_text/rl_replay.toml "$@"
