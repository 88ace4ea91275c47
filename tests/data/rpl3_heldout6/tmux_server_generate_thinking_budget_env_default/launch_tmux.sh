#!/usr/bin/env bash
# Dev box launcher: policy server in a detached tmux session, then the rollout loop.
tmux new-session -d -s policy "vllm serve Qwen/Qwen3-4B --reasoning-parser qwen3 --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs --port 8000"
sleep 90
python rollout_loop.py
