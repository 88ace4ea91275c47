# Imitates PrimeIntellect-ai/prime-rl scripts/__init__.py (a package of the tree).
