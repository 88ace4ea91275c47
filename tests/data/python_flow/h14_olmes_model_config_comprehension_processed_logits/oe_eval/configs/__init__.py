# Imitates allenai/olmes: the package oe_eval/configs (its __init__ imports nothing vLLM needs)
