#!/usr/bin/env bash
set -euo pipefail
uv run rl @ configs/replay/rl.toml --output-dir outputs/replay
