vllm serve Qwen/Qwen3-8B --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs --generation-config vllm
