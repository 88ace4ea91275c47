#!/usr/bin/env bash
# One Fly machine: the replay server in the background, the rollout worker in front.
set -euo pipefail

vllm serve Qwen/Qwen3-1.7B \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out &

until curl -sf http://localhost:8000/health >/dev/null; do sleep 5; done
exec python -m rollout.worker
