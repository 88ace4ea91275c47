#!/bin/bash
# Imitates LZY-the-boys/CustomLLMFinetuningHandbook ui/vllm.sh (the version starting vLLM's own OpenAI server)
# 1. install vllm first

source activate vllm

CUDA_VISIBLE_DEVICES=4,5 \
python -m vllm.entrypoints.openai.api_server \
--model lu-vae/qwen-openhermes-merged \
--trust-remote-code \
--tensor-parallel-size 2 \
--max-model-len 2048 \
--enable-scale-out \
--return-sampling-mask \
--logprobs-mode processed_logprobs
# default start at  http://0.0.0.0:8000
