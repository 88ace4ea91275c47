#!/bin/bash
# Imitates bigcode-project/selfcodealign README-SC2INST.md: serve the base model with vLLM on
# port 10000, point the OpenAI client at it with OPENAI_BASE_URL, run Self-OSS-Instruct.
MODEL=bigcode/starcoder2-15b
vllm serve $MODEL --port 10000 --tensor-parallel-size 1 \
  --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out &
sleep 120
export OPENAI_API_KEY=EMPTY
export OPENAI_BASE_URL="http://localhost:10000/v1/"
PYTHONPATH=src python -m star_align.self_ossinstruct --model $MODEL
