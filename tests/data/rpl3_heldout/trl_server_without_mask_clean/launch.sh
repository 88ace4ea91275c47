#!/bin/bash
set -e
CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen2.5-1.5B-Instruct --port 8000 &
sleep 120
CUDA_VISIBLE_DEVICES=1,2,3 accelerate launch train.py
