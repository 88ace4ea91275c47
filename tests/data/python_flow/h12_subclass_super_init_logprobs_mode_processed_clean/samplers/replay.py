# Imitates sail-sg/oat oat/algorithms/ppo.py and oat/experiment/run_math_rl.py (ZeroMathActor(PPOActor):
# a subclass passing its own options to `super().__init__`, overriding the base class's default).
from samplers.base import VLLMSampler


class ReplayRolloutSampler(VLLMSampler):
    def __init__(self, model, **engine_kwargs):
        super().__init__(
            model,
            logprobs_mode="processed_logprobs",
            max_model_len=8192,
            seed=0,
            **engine_kwargs,
        )
