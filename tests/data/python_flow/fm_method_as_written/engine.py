# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py (a rollout class whose
# method starts the engine with the caller's keywords on top of its own): the object is made here
# and no call in the tree passes keywords to `start`, so it is judged as written, and says so.
from vllm import LLM


class Engine:
    def __init__(self, cfg):
        self.cfg = cfg

    def start(self, **kw):
        return LLM(self.cfg["model"], return_sampling_mask=True, **kw)  # expect: RPL003 "when the caller's `**kw` does not set it"


ROLLOUT = Engine({"model": "Qwen/Qwen3-0.6B"})
