#!/bin/bash
# Imitates mit-han-lab/x-attention eval/RULER/scripts/run.sh: the vllm branch starts pred/serve_vllm.py in the
# background; the user's edit asks for sampling masks with processed logprobs.
GPUS=1
MODEL_PATH=meta-llama/Llama-3.1-8B-Instruct
MODEL_FRAMEWORK=vllm

if [ "$MODEL_FRAMEWORK" == "vllm" ]; then
    python pred/serve_vllm.py \
        --model=${MODEL_PATH} \
        --tensor-parallel-size=${GPUS} \
        --dtype bfloat16 \
        --disable-custom-all-reduce \
        --return-sampling-mask \
        --logprobs-mode processed_logprobs \
        &

elif [ "$MODEL_FRAMEWORK" == "trtllm" ]; then
    python pred/serve_trt.py \
        --model_path=${MODEL_PATH} \
        &
fi
