#!/bin/bash
# Imitates mit-han-lab/x-attention eval/RULER/scripts/run.sh: the vllm branch starts pred/serve_vllm.py with
# its usual flags; the user's edit turns the mask on inside the server instead.
GPUS=1
MODEL_PATH=meta-llama/Llama-3.1-8B-Instruct
MODEL_FRAMEWORK=vllm

if [ "$MODEL_FRAMEWORK" == "vllm" ]; then
    python pred/serve_vllm.py \
        --model=${MODEL_PATH} \
        --tensor-parallel-size=${GPUS} \
        --dtype bfloat16 \
        --disable-custom-all-reduce \
        &
fi
