# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py (the worker that owns the engine)
from vllm import SamplingParams

from engine_factory import make_engine


class RolloutWorker:
    def __init__(self, model):
        self.engine = make_engine(model)

    def step(self, request_id, prompt):
        params = SamplingParams(temperature=1.0, top_k=64, max_tokens=512)
        self.engine.add_request(request_id, prompt, params)
        return self.engine.step()


if __name__ == "__main__":
    RolloutWorker("Qwen/Qwen3-8B").step("r0", "Hello")
