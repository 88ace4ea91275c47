vllm serve mistralai/Mistral-7B-Instruct-v0.3 --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs --port 8000
