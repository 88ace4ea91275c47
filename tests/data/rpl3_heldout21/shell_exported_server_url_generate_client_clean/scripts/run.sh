#!/usr/bin/env bash
set -euo pipefail

export REPLAY_SERVER=http://127.0.0.1:8000

vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out &
until curl -sf "$REPLAY_SERVER/health"; do sleep 5; done

python -m rollout.generate
