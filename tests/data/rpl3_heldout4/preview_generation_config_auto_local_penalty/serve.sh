vllm serve ./policy --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs --generation-config auto
