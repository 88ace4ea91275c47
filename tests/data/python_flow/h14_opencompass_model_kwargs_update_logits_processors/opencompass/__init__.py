# Imitates open-compass/opencompass: the package opencompass (its __init__ imports nothing vLLM needs)
