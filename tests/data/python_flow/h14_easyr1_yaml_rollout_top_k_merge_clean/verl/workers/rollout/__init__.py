# Imitates hiyouga/EasyR1: the package verl/workers/rollout (its __init__ imports nothing vLLM needs)
