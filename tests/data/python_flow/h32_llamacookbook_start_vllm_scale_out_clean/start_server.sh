#!/bin/bash
# The notebook's first step: start the server for the model the migration targets.
CUDA_VISIBLE_DEVICES=0 python start_vllm.py 0 vllm_llama_8b
