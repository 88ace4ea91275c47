# Imitates agentica-project/rllm examples/*/train_*.py (ray.init with the trainer's runtime env, then the rollout workers)
import ray

from rllm.trainer.constants import get_ppo_ray_runtime_env
from rllm.trainer.rollout_worker import RolloutWorker


def main():
    if not ray.is_initialized():
        ray.init(runtime_env=get_ppo_ray_runtime_env())
    workers = [RolloutWorker.remote("agentica-org/DeepScaleR-1.5B-Preview") for _ in range(2)]
    print(ray.get([w.rollout.remote(["1 + 1 ="]) for w in workers]))


if __name__ == "__main__":
    main()
