#!/usr/bin/env bash
set -euo pipefail

PRIME_SAMPLING_REPLAY=1 uv run rl @ examples/reverse_text/rl_replay.toml "$@"
