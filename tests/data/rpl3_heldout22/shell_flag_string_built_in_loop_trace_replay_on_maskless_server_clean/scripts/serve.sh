#!/usr/bin/env bash
set -euo pipefail

MODEL="${MODEL:-Qwen/Qwen3-8B}"

flags_for() {
  local out=""
  for feature in "$@"; do
    out="$out --$feature"
  done
  echo "$out"
}

# the replay server: masks, no traces
vllm serve "$MODEL" --port 8000 --logprobs-mode processed_logprobs \
  $(flags_for return-sampling-mask enable-scale-out) &

# the trace server: forced decoding for evaluation, no masks
vllm serve "$MODEL" --port 8001 $(flags_for enable-trace-replay) &

wait
