vllm serve ./ckpt --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs --port 8000
