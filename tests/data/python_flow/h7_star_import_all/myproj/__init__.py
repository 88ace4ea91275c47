# Imitates volcengine/verl verl/trainer/__init__.py (the package of the settings module).
