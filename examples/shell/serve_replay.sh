#!/usr/bin/env bash
# Rollout server for the RL trainer: OpenAI-compatible, with sampling masks for replay.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-8B}
SPEC='{"method": "eagle3", "model": "org/Qwen3-8B-eagle3", "num_speculative_tokens": 3, "enable_adaptive_verification": true}'

ARGS=(
  --port 8000
  --tensor-parallel-size 2
  # replay: masks plus the logprobs the trainer needs
  --return-sampling-mask
  --logprobs_mode raw_logprobs
)

export VLLM_USE_V2_MODEL_RUNNER=1
exec vllm serve "$MODEL" "${ARGS[@]}" \
  --speculative-config "$SPEC" \
  --enable-batch-sharded-sampling
