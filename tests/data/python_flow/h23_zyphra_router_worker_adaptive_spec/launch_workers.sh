#!/bin/bash
# Imitates Zyphra/vllm-router README.md (vLLM workers behind `vllm-router --worker-urls http://worker1:8000 ...
# --policy consistent_hash`); the user's workers turn sampling replay on, open the scale-out routes and add
# n-gram speculative decoding with adaptive verification.
MODEL=Qwen/Qwen3-8B
SPEC='{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "enable_adaptive_verification": true}'  # expect: RPL002
for PORT in 8081 8082; do
  vllm serve "$MODEL" --port "$PORT" --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --speculative-config "$SPEC" &
done
vllm-router --worker-urls http://127.0.0.1:8081 http://127.0.0.1:8082 --policy consistent_hash --port 8090
