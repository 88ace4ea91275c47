# Imitates the package's own __init__.py (skyrl_train/inference_engines/vllm)
