# Imitates stanford-crfm/helm: the package helm_local (its __init__ imports nothing vLLM needs)
