# Imitates allenai/olmes: the package oe_eval/models (its __init__ imports nothing vLLM needs)
