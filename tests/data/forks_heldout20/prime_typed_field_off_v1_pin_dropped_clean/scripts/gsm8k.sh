#!/bin/bash
set -euo pipefail

uv run rl @ configs/gsm8k/rl.toml
