# Imitates hiyouga/EasyR1: the package verl (its __init__ imports nothing vLLM needs)
