# Imitates SkyworkAI/Skywork-OR1 verl/workers (verl's vLLM rollout package).
