# Imitates EvolvingLMMs-Lab/lmms-eval: the package lmms_eval/models (its __init__ imports nothing vLLM needs)
