#!/bin/bash
vllm serve ./models/llama-sft --port 8004 --enable-scale-out --watermark 0.02 \
  --return-sampling-mask --logprobs-mode processed_logprobs
