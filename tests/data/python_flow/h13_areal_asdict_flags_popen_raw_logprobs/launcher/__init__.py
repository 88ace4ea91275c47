# Imitates inclusionAI/AReaL areal/infra/launcher/ (package marker of the launcher).
