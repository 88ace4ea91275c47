#!/bin/bash
# The fork's run, as prime-rl's examples/basic/reverse-text/README.md launches it.
set -euo pipefail

uv run rl @ rl-replay.toml
