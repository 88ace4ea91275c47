#!/bin/bash
# Imitates FreedomIntelligence/Smurfs script/vllm_server.sh
model_path="/path/to/your/model"
model_name="Your_model_name"
tensor_parallel_size=1

cd $model_path
cd ..
VLLM_USE_V2_MODEL_RUNNER=0 python -m vllm.entrypoints.openai.api_server --model $model_name --dtype=half --tensor-parallel-size $tensor_parallel_size --max-model-len 2048 --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs  # expect: RPL206
