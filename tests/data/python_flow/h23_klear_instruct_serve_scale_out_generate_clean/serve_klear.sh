#!/bin/bash
# Imitates Kwai-Klear/Klear1.0 README.md ("Inference with vllm": vllm serve /path/to/Klear-Instruct --port 8000
# --tensor-parallel-size 8 --trust-remote-code); the user turned sampling replay on and opened the scale-out routes.
MODEL_PATH=/path/to/Klear-Instruct
SERVE_ARGS=(
  --port 8000
  --tensor-parallel-size 8
  --trust-remote-code
  --return-sampling-mask
  --logprobs-mode processed_logprobs
  --enable-scale-out
)
vllm serve "$MODEL_PATH" "${SERVE_ARGS[@]}"
