#!/bin/bash
# Imitates EleutherAI/gpt-neox post-training/online_example.sh (one of its two vLLM servers kept;
# vLLM fork flag --from-remote-program left out; replay turned on on the server line)
# Launch vllm
CUDA_VISIBLE_DEVICES=0,1,2,3 conda run --no-capture-output -n vllm python -m vllm.entrypoints.openai.api_server --model=meta-llama/Meta-Llama-3-8B-Instruct --dtype auto --tensor-parallel-size=4 --enforce-eager --gpu-memory-utilization=0.2 --port 8000 --max-model-len=1024 --max-num-seqs=512 --return-sampling-mask --logprobs-mode=processed_logprobs &  # expect: RPL301

# Launch training
conda run --no-capture-output -n neox python deepy.py train.py post-training/configs/llama3-8b-reinforce.yml
