# Imitates agentica-project/rllm: the package rllm/trainer (its __init__ imports nothing vLLM needs)
