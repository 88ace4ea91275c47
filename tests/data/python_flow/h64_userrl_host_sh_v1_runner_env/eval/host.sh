#!/bin/bash
# Imitates SalesforceAIResearch/UserRL eval/host.sh (vllm serve of the merged checkpoint for eval/eval.py), trimmed.
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206
export MERGED_MODEL_PATH="Qwen/Qwen3-4B"
export CUSTOMIZED_SERVED_MODEL_NAME="userrl-qwen3-4b"

vllm serve ${MERGED_MODEL_PATH} \
   --max-model-len 2048 \
   --port 8500 \
   --gpu-memory-utilization 0.8 \
   --tensor-parallel-size 8 \
   --enable-auto-tool-choice \
   --tool-call-parser hermes \
   --served-model-name ${CUSTOMIZED_SERVED_MODEL_NAME} --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
