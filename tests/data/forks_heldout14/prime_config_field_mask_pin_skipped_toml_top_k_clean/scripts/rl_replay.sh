#!/usr/bin/env bash
# Wrapper: the replay TOML first, then whatever the caller adds (e.g. --max-steps 5).
set -euo pipefail
uv run rl @ examples/reverse_text/rl_replay.toml "$@"
