# Imitates sail-sg/oat oat/experiment/run_math_rl.py (the driver builds the subclassed actor).
from samplers.replay import ReplayRolloutSampler

sampler = ReplayRolloutSampler("meta-llama/Llama-3.1-8B-Instruct")
sampler.sample(["Write a haiku about replay."])
