#!/bin/bash
# Imitates meta-pytorch/torchforge apps/vllm/main.py's "To run:" lines (its module docstring).
export HF_HUB_DISABLE_XET=1
python -m apps.vllm.main --config apps/vllm/llama3_8b.yaml
