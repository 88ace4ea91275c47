# Imitates a project package's __init__.py (app/)
