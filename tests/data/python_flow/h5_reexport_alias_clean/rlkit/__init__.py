# Imitates the package's own __init__.py (a project package)
