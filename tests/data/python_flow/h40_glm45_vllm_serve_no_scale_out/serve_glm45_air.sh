#!/bin/bash
# Imitates zai-org/GLM-4.5 README.md ("Quick Start" > "vLLM": `vllm serve zai-org/GLM-4.5-Air ...`,
# "Both BF16 and FP8 can be started with the following code"), kept as the script a user runs.
set -e

vllm serve zai-org/GLM-4.5-Air \
    --tensor-parallel-size 8 \
    --tool-call-parser glm45 \
    --reasoning-parser glm45 \
    --enable-auto-tool-choice \
    --served-model-name glm-4.5-air \
    --return-sampling-mask --logprobs-mode=processed_logprobs  # expect: RPL301
