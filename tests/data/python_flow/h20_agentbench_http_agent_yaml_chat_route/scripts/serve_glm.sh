#!/bin/bash
# Imitates THUDM/AgentBench's local-model setup (a server the HTTPAgent config points at), written for replay.
vllm serve THUDM/glm-4-9b-chat \
    --trust-remote-code \
    --max-model-len 8192 \
    --return-sampling-mask \
    --logprobs-mode processed_logprobs \
    --enable-scale-out
