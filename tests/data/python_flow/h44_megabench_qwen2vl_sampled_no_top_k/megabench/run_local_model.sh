#!/bin/bash
# Query-only run of an open model on the core subset (MEGA-Bench README's usage: run from megabench/).
cd "$(dirname "$0")"
python main.py \
  --model_type QWEN2_VL_2B \
  --output_file results/Qwen2_VL_2B/all_query_responses.json \
  --print_response
