# Imitates open-compass/opencompass: the package configs (its __init__ imports nothing vLLM needs)
