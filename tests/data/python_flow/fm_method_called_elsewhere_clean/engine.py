# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py (a rollout class whose
# method starts the engine with the caller's keywords on top of its own): the caller in another
# module passes what vLLM wants.
from vllm import LLM


class Engine:
    def __init__(self, cfg):
        self.cfg = cfg

    def start(self, **kw):
        return LLM(self.cfg["model"], return_sampling_mask=True, **kw)
