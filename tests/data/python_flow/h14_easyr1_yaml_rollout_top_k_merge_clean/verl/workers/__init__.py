# Imitates hiyouga/EasyR1: the package verl/workers (its __init__ imports nothing vLLM needs)
