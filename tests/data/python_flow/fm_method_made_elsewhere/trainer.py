# Imitates volcengine/verl verl/trainer/main_ppo.py: the trainer makes the rollout object and hands
# it to the loop, which starts it as written.
from rollout import Rollout


def build_rollout(config):
    return Rollout(config["model_path"])
