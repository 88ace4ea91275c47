#!/bin/bash
# Imitates defog-ai/sql-eval utils/api_server.py's header comment (how to start it, as vLLM's api server)
model_path="defog/sqlcoder-7b-2"
python3 utils/api_server.py \
  --model "${model_path}" \
  --tensor-parallel-size 1 \
  --dtype float16 \
  --max-model-len 2048 \
  --port 5000 \
  --gpu-memory-utilization 0.90 \
  --return-sampling-mask  # expect: RPL003
