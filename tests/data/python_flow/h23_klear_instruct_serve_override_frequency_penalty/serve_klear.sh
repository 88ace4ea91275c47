#!/bin/bash
# Imitates Kwai-Klear/Klear1.0 README.md ("Inference with vllm": vllm serve /path/to/Klear-Instruct --port 8000
# --tensor-parallel-size 8 --trust-remote-code); the user turned sampling replay on, opened the scale-out routes
# and made the README's sampling settings (plus a frequency penalty) the server's defaults.
MODEL_PATH=/path/to/Klear-Instruct
GEN_DEFAULTS='{"temperature": 0.6, "top_p": 0.95, "top_k": 40, "frequency_penalty": 0.3}'  # expect: RPL302
vllm serve "$MODEL_PATH" --port 8000 --tensor-parallel-size 8 --trust-remote-code --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --override-generation-config "$GEN_DEFAULTS"
