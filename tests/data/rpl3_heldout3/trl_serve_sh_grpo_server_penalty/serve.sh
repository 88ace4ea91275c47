#!/bin/bash
CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen3-4B --return-sampling-mask
