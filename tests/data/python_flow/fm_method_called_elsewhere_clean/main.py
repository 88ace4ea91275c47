# Imitates volcengine/verl verl/trainer/main_ppo.py: the trainer makes the rollout object and
# starts it with the log-probability mode replay needs.
from engine import Engine

e = Engine({"model": "Qwen/Qwen3-0.6B"})
e.start(logprobs_mode="processed_logprobs")
