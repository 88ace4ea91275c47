#!/bin/bash
CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen3-1.7B --port 8000 --return-sampling-mask
