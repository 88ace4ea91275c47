#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/common.sh"
uv run rl @ configs/replay/math.toml --output-dir outputs/replay-math
