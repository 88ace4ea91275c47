#!/usr/bin/env bash
set -euo pipefail

uv run rl @ examples/reverse_text/rl_replay.toml "$@"
