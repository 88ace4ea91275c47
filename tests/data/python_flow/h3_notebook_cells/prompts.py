# Imitates unslothai/notebooks (GRPO colabs) and vllm-project/vllm examples/offline_inference/
# notebooks: a helper module next to the notebook holds the prompts and the model name.
MODEL = "Qwen/Qwen2.5-0.5B-Instruct"
PROMPTS = ["What is 3 + 5?", "Name a prime above 10."]
