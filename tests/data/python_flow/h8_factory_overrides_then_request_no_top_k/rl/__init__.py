# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines (a package with an engine factory)
