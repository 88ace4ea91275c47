# Imitates allenai/open-instruct open_instruct/grpo_fast.py (the learner starts the vLLM actors)
import ray

from actors import RolloutActor
from settings import ENGINE_KWARGS


def main(num_engines=2):
    ray.init()
    actors = [RolloutActor.remote(engine_kwargs=ENGINE_KWARGS, seed=i) for i in range(num_engines)]
    print(ray.get([actor.generate.remote(["Write a haiku."]) for actor in actors]))


if __name__ == "__main__":
    main()
