# Imitates alibaba/ROLL/roll/distributed/__init__.py (the package's own __init__.py)
