# Imitates Jiayi-Pan/TinyZero verl/__init__.py (package marker)
