# Imitates open-compass/opencompass: the package configs/models (its __init__ imports nothing vLLM needs)
