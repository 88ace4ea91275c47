# Imitates evalplus/evalplus evalplus/__init__.py (package marker).
