# Imitates NVIDIA-NeMo/Skills' package layout (configs shipped inside the package)
