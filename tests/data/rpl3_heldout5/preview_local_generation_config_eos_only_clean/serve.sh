vllm serve ./models/policy --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --port 8000
