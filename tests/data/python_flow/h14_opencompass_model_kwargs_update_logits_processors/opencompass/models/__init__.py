# Imitates open-compass/opencompass: the package opencompass/models (its __init__ imports nothing vLLM needs)
