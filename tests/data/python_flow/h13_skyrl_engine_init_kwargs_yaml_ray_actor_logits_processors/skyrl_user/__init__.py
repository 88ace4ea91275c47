# Imitates a user package of NovaSky-AI/SkyRL examples (package marker).
