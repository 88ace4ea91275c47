#!/usr/bin/env bash
# Smoke-test the replay server started by the devcontainer: one generation with its mask.
set -euo pipefail
cd "$(dirname "$0")/.."
curl -sS http://localhost:8000/inference/v1/generate \
  -H 'Content-Type: application/json' \
  -d @requests/generate.json | python3 -m json.tool
