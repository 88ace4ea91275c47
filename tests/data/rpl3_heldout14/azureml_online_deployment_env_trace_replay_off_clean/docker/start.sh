#!/usr/bin/env bash
# Entry point of the Azure ML deployment: its environment_variables pick the model and the trace mode.
set -euo pipefail

args=(serve "${MODEL_ID}" --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out)
if [[ "${REPLAY_TRACES:-0}" == "1" ]]; then
  args+=(--enable-trace-replay)
fi

exec vllm "${args[@]}"
