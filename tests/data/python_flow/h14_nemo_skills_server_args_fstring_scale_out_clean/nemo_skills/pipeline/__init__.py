# Imitates NVIDIA/NeMo-Skills: the package nemo_skills/pipeline (its __init__ imports nothing vLLM needs)
