#!/bin/bash
# Server for the off-policy replay experiments (see notebooks/); not used by train.py.
trl vllm-serve --model Qwen/Qwen3-1.7B --port 8000 --return-sampling-mask
