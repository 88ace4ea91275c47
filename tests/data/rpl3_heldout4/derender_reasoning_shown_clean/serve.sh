vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --enable-scale-out --reasoning-parser deepseek_r1 --return-sampling-mask --logprobs-mode processed_logprobs --port 8000
