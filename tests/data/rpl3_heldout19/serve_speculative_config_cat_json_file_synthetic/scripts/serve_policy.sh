#!/usr/bin/env bash
# Policy server for rollouts: replay masks plus n-gram speculation (config kept in configs/spec.json).
set -euo pipefail
cd "$(dirname "$0")/.."

MODEL=Qwen/Qwen3-0.6B
SPEC_CONFIG="$(cat configs/spec.json)"

exec vllm serve "$MODEL" --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --speculative-config "$SPEC_CONFIG"
