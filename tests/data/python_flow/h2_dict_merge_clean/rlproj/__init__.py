# Imitates NovaSky-AI/SkyRL skyrl/__init__.py (a package of the tree).
