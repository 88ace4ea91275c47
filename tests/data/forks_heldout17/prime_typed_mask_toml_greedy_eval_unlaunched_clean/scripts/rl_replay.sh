#!/bin/bash
set -euo pipefail

# Reverse-text RL with sampling distribution replay.
uv run rl @ configs/basic/reverse-text/rl-replay.toml
