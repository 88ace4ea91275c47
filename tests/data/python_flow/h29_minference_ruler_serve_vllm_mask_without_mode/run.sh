#!/bin/bash
# Imitates microsoft/MInference experiments/ruler/run.sh (RULER's launcher): start pred/serve_vllm.py in the
# background with engine flags; the user's edit asks the engine for sampling masks.
GPUS=1
MODEL_PATH=gradientai/Llama-3-8B-Instruct-262k

python pred/serve_vllm.py \
    --model=${MODEL_PATH} \
    --tensor-parallel-size=${GPUS} \
    --dtype bfloat16 \
    --disable-custom-all-reduce \
    --return-sampling-mask &  # expect: RPL003
SERVER_PID=$!

sleep 120
python pred/call_api.py --server_type vllm --server_port 5000 --data_dir ./benchmark_root --task niah_single_1
kill $SERVER_PID
