vllm serve Qwen/Qwen2.5-7B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --port 8000
