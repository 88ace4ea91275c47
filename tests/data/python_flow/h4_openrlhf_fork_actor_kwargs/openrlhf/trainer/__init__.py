# Imitates the package's own __init__.py (openrlhf/trainer)
