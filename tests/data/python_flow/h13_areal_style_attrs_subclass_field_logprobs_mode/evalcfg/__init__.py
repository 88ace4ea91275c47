# Imitates inclusionAI/AReaL areal/api/ (package marker).
