#!/usr/bin/env bash
# Shared launcher: the eval server re-scores recorded traces; the RL policy server must not.
set -euo pipefail

COMMON=(--port 8000 --enable-scale-out --enable-trace-replay --max-num-seqs 256)

# Policy server for RL: masks on, trace replay switched back off (the last flag wins).
exec vllm serve Qwen/Qwen3-4B "${COMMON[@]}" \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --no-enable-trace-replay
