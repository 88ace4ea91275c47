vllm serve Qwen/Qwen2.5-Math-7B --return-sampling-mask --logprobs-mode processed_logprobs --port 8000
