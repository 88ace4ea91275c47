# Imitates argilla-io/distilabel: the package distilabel_local (its __init__ imports nothing vLLM needs)
