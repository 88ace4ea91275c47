#!/bin/bash
# Imitates defog-ai/sql-eval README.md's vLLM run of main.py
python main.py \
  -q "data/questions_gen.csv" \
  -o "results/sqlcoder_vllm.csv" \
  -g vllm \
  -f "prompts/prompt.md" \
  -m defog/sqlcoder-7b-2
