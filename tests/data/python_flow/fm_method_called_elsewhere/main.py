# Imitates volcengine/verl verl/trainer/main_ppo.py: the trainer makes the rollout object and
# starts it with the log-probability mode of its config.
from engine import Engine

e = Engine({"model": "Qwen/Qwen3-0.6B"})
e.start(logprobs_mode="raw_logprobs")  # expect: RPL003
