#!/bin/bash
# Starts Dynasor's vLLM server (dynasor/cli/vllm_server.py) for the clients in examples/.
MODEL=deepseek-ai/DeepSeek-R1-Distill-Qwen-7B

python -m dynasor.cli.vllm_server \
    --model $MODEL \
    --port 8000 \
    --max-model-len 2048 \
    --enable-prefix-caching \
    --enable-scale-out \
    --return-sampling-mask --logprobs-mode processed_logprobs \
    --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}'
