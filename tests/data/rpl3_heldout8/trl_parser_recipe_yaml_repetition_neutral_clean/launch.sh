#!/usr/bin/env bash
# GPUs 0-6: the GRPO trainer, generating through the server of serve.sh
set -euo pipefail

CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6 accelerate launch --num_processes 7 grpo.py --config recipes/grpo.yaml
