# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (create_vllm_engines: one actor
# per engine, `.options(num_cpus=..., num_gpus=..., scheduling_strategy=...).remote(**actor_kwargs)`).
import ray
from rollout.engine_cfg import rollout_engine_kwargs
from rollout.worker import RolloutRayActor


def create_vllm_engines(num_engines, cfg):
    engines = []
    for i in range(num_engines):
        engines.append(
            RolloutRayActor.options(
                num_cpus=1,
                num_gpus=1,
                name=f"vllm-rollout-{i}",
            ).remote(**rollout_engine_kwargs(cfg))
        )
    return engines


if __name__ == "__main__":
    ray.init()
    engines = create_vllm_engines(2, {"pretrain": "Qwen/Qwen2.5-7B-Instruct", "gpu_memory_utilization": 0.85})
    ray.get([engine.generate.remote(["Hello"]) for engine in engines])
