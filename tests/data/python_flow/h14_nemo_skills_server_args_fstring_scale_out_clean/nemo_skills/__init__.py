# Imitates NVIDIA/NeMo-Skills: the package nemo_skills (its __init__ imports nothing vLLM needs)
