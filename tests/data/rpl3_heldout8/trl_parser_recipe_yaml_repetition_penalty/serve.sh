#!/usr/bin/env bash
# GPU 7: generation server for the GRPO run (TRL server mode), sampling masks kept for replay checks.
set -euo pipefail

CUDA_VISIBLE_DEVICES=7 trl vllm-serve --model Qwen/Qwen2.5-1.5B-Instruct --port 8000 --return-sampling-mask
