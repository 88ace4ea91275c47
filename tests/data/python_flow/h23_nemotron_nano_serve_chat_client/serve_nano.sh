#!/bin/bash
# Imitates NVIDIA-NeMo/Nemotron usage-cookbook/Nemotron-Nano-9B-v2/vllm_cookbook.ipynb ("OpenAI-compatible
# server": vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --trust-remote-code --dtype bfloat16); the user turned
# sampling replay on and opened the scale-out routes.
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --trust-remote-code --dtype bfloat16 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
