#!/bin/bash
# Reverse-text RL with sampling distribution replay, one node.
set -euo pipefail

uv run rl @ examples/reverse_text/rl_replay.toml "$@"
