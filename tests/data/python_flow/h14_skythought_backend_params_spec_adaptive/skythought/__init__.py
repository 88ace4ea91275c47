# Imitates NovaSky-AI/SkyThought: the package skythought (its __init__ imports nothing vLLM needs)
