vllm serve Qwen/Qwen2.5-7B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --host 0.0.0.0
