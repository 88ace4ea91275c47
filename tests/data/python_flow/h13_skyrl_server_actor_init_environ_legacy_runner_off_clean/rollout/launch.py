# Imitates NovaSky-AI/SkyRL's engine creation: one actor per engine, `.options(...).remote(...)`.
import ray
from vllm import SamplingParams

from rollout.config import InferenceEngineConfig
from rollout.server_actor import VLLMServerActor


def create_actors(cfg: InferenceEngineConfig):
    return [
        VLLMServerActor.options(num_gpus=1, name=f"vllm-server-{rank}").remote(cfg, rank)
        for rank in range(cfg.num_engines)
    ]


if __name__ == "__main__":
    ray.init()
    cfg = InferenceEngineConfig()
    actors = create_actors(cfg)
    params = SamplingParams(temperature=1.0, top_k=50, max_tokens=1024)
    print(ray.get([actor.generate.remote(["1 + 1 ="], params) for actor in actors]))
