# Imitates mlfoundations/evalchemy: the package eval (its __init__ imports nothing vLLM needs)
