# Imitates the package's own __init__.py (verl/workers/config)
