#!/bin/bash
# Imitates stanford-oval/storm's README step "deploy the Mistral model with vLLM" for run_storm_wiki_mistral.py
vllm serve mistralai/Mistral-7B-Instruct-v0.2 \
  --port 8000 \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-scale-out
