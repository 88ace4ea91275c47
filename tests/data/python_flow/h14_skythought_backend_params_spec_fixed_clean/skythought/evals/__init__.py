# Imitates NovaSky-AI/SkyThought: the package skythought/evals (its __init__ imports nothing vLLM needs)
