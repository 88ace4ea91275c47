# Imitates agentica-project/rllm: the package rllm (its __init__ imports nothing vLLM needs)
