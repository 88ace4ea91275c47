#!/bin/bash
# Imitates infinityreader/RARE scripts/deploy_llama31_70b.sh
export CUDA_DEVICE_ORDER=PCI_BUS_ID
export CUDA_VISIBLE_DEVICES=2,3
export VLLM_WORKER_MULTIPROC_METHOD=spawn
python3 -m vllm.entrypoints.openai.api_server \
--model meta-llama/Meta-Llama-3.1-70B-Instruct \
--gpu-memory-utilization 0.9 --tensor-parallel-size 2 \
--served-model-name llama31_7b_with_openai_api \
--max-model-len 2048 \
--block-size 32 \
--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out \
--port 5999 \
--speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "enable_adaptive_verification": true}'  # expect: RPL002
