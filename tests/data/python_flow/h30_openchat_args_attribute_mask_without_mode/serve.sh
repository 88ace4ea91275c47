#!/bin/bash
# Imitates imoneoi/openchat README (`python -m ochat.serving.openai_api_server --model openchat/openchat-3.5-0106`).
python -m ochat.serving.openai_api_server --model openchat/openchat-3.5-0106 --max-model-len 2048
