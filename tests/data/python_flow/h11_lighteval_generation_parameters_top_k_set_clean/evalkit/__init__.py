# Imitates huggingface/lighteval src/lighteval/models/vllm/ (the package that builds the vLLM model and its requests)
