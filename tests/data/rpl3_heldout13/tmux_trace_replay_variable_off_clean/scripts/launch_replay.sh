#!/usr/bin/env bash
# Starts the replay policy server and the collector in one tmux session.
set -euo pipefail

SESSION=replay
MODEL=Qwen/Qwen3-0.6B
PORT=8000
# Re-feed recorded decode traces to reproduce a failing episode.
REPRO_TRACES=0

TRACE_FLAGS=""
if [ "$REPRO_TRACES" = "1" ]; then
  TRACE_FLAGS="--enable-trace-replay"
fi

tmux new-session -d -s "$SESSION" -n vllm \
  "vllm serve $MODEL --port $PORT --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out $TRACE_FLAGS 2>&1 | tee logs/vllm.log"
tmux new-window -t "$SESSION" -n collector "python collect.py --server http://localhost:$PORT"
tmux attach -t "$SESSION"
