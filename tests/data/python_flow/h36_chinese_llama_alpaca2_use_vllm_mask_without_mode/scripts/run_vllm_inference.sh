#!/bin/bash
# Imitates ymcui/Chinese-LLaMA-Alpaca-2's wiki command for scripts/inference/inference_hf.py with vLLM.
python scripts/inference/inference_hf.py \
    --base_model hfl/chinese-alpaca-2-7b \
    --with_prompt \
    --gpus 0 \
    --predictions_file ./outputs/predictions.json \
    --use_vllm
