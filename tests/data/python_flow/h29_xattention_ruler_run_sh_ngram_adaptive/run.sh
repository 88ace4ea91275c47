#!/bin/bash
# Imitates mit-han-lab/x-attention eval/RULER/scripts/run.sh: the vllm branch starts pred/serve_vllm.py; the
# user's edit asks for masks and adds n-gram speculative decoding with adaptive verification.
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
        --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "enable_adaptive_verification": true}' &  # expect: RPL002
fi
