#!/bin/sh
# Replay server: every sampling parameter comes from the trainer's request, none from the model's files.
vllm serve Qwen/Qwen3-4B \
    --host 0.0.0.0 --port 8000 \
    --enable-scale-out \
    --return-sampling-mask --logprobs-mode processed_logprobs \
    --generation-config vllm
