#!/usr/bin/env bash
set -euo pipefail
SESSION=policy
tmux new-session -d -s "$SESSION" -n vllm \
  "vllm serve Qwen/Qwen3-8B --port 8011 --reasoning-parser qwen3 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out 2>&1 | tee logs/vllm.log"
tmux new-window -t "$SESSION" -n agent "python -m agent.collect"
tmux attach -t "$SESSION"
