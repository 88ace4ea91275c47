#!/bin/bash
# The fork's run, as prime-rl's examples/basic/reverse-text/README.md launches it.
set -euo pipefail

export PRIME_RL_RETURN_SAMPLING_MASK=1
uv run rl @ rl-replay.toml --wandb.project reverse-text-replay
