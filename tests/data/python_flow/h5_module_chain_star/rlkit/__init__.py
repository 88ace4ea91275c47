# Imitates alibaba/ROLL/roll/__init__.py (the package's own __init__.py)
