# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/__init__.py (a package of the tree).
