# Imitates the package's own __init__.py (agent_r1)
