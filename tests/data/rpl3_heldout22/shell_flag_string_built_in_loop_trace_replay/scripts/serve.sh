#!/usr/bin/env bash
set -euo pipefail

MODEL="${MODEL:-Qwen/Qwen3-8B}"
FEATURES="return-sampling-mask enable-scale-out enable-trace-replay"

FLAGS=""
for feature in $FEATURES; do
  FLAGS="$FLAGS --$feature"
done

exec vllm serve "$MODEL" --port 8000 --logprobs-mode processed_logprobs $FLAGS
