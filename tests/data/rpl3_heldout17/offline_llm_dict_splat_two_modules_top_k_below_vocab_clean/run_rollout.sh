#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
python -m rollout.offline --prompts data/prompts.jsonl --out data/rollouts.jsonl
