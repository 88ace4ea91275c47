# Imitates allenai/olmes: the package oe_eval (its __init__ imports nothing vLLM needs)
