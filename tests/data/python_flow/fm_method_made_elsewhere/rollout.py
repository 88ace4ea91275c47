# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py (a rollout class whose
# method starts the engine with the caller's keywords on top of its own): the trainer in another
# module makes the object and no call in the tree passes keywords to `start`: judged as written.
from vllm import LLM


class Rollout:
    def __init__(self, model_path):
        self.model_path = model_path

    def start(self, **engine_kwargs):
        return LLM(self.model_path, return_sampling_mask=True, **engine_kwargs)  # expect: RPL003 "when the caller's `**engine_kwargs` does not set it"
