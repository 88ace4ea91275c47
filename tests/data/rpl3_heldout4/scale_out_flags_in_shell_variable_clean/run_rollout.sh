#!/usr/bin/env bash
set -e
MODEL=${MODEL:-Qwen/Qwen3-4B}
REPLAY_FLAGS="--return-sampling-mask --logprobs-mode processed_logprobs"
SCALE_OUT_FLAGS="--enable-scale-out"
vllm serve "$MODEL" $REPLAY_FLAGS $SCALE_OUT_FLAGS --port 8010 &
python rollout.py --url http://localhost:8010/inference/v1/generate
