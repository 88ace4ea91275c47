#!/bin/bash
# Imitates Kwai-Klear/Klear1.0 README.md ("Inference with vllm": vllm serve /path/to/Klear-Instruct --port 8000
# --tensor-parallel-size 8 --trust-remote-code); the user turned sampling replay on for RL rollouts.
MODEL_PATH=/path/to/Klear-Instruct
SERVE_ARGS=(
  --port 8000
  --tensor-parallel-size 8
  --trust-remote-code
  --return-sampling-mask  # expect: RPL301
  --logprobs-mode processed_logprobs
)
vllm serve "$MODEL_PATH" "${SERVE_ARGS[@]}"
