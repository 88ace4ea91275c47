# Imitates NovaSky-AI/SkyRL skyrl/benchmarks/ (package marker).
