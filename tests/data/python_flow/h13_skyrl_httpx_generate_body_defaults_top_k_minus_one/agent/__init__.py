# Imitates NovaSky-AI/SkyRL examples/train/thunder_agent/skyrl_integration/ (package marker).
