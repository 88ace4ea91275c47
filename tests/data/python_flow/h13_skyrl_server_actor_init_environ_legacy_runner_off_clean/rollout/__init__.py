# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/ (package marker).
