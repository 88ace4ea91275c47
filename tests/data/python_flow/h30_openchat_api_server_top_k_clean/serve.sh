#!/bin/bash
# Imitates imoneoi/openchat README (`python -m ochat.serving.openai_api_server --model openchat/openchat-3.5-0106`), with replay.
python -m ochat.serving.openai_api_server --model openchat/openchat-3.5-0106 --max-model-len 2048 \
    --return-sampling-mask --logprobs-mode processed_logprobs
