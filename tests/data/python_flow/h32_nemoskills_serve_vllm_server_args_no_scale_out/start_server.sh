#!/bin/bash
# What `ns start_server --server_type vllm --server_gpus 1 --server_args "..."` runs on the node.
export SLURM_PROCID=0
export SLURM_NODELIST=localhost

python -m nemo_skills.inference.server.serve_vllm \
    --model Qwen/Qwen2.5-Math-7B-Instruct \
    --num_gpus 1 \
    --port 5000 \
    --return-sampling-mask --logprobs-mode processed_logprobs # expect: RPL301
