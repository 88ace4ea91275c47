# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/inference_engines/vllm/vllm_engine.py: the
# engine configuration handed to the worker's constructor, the engine built in another method.
from vllm import LLM


class InferenceWorker:
    def __init__(self, engine_config):
        self.engine_config = engine_config

    def start(self):
        self.llm = LLM(**self.engine_config)


worker = InferenceWorker({"model": "Qwen/Qwen3-8B", "return_sampling_mask": True})  # expect: RPL003
