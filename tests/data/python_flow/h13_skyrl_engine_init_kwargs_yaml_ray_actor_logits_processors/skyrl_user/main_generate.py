# Imitates NovaSky-AI/SkyRL examples/train/*/main_*.py with its Ray-wrapped engines: the YAML is
# read by path, each engine actor is created with `.options(...).remote(**kwargs)`.
from pathlib import Path

import ray
from omegaconf import OmegaConf
from vllm import LLM, SamplingParams

from skyrl_user.engine_args import get_engine_kwargs

CONFIG_PATH = Path(__file__).resolve().parent.parent / "config" / "run.yaml"


class RolloutEngine:
    def __init__(self, **engine_kwargs):
        self.llm = LLM(**engine_kwargs)

    def generate(self, prompts, params):
        return [out.outputs[0].text for out in self.llm.generate(prompts, params)]


def create_engines(cfg):
    ie_cfg = cfg.generator.inference_engine
    actor_cls = ray.remote(RolloutEngine)
    kwargs = get_engine_kwargs(ie_cfg)
    return [
        actor_cls.options(num_gpus=ie_cfg.tensor_parallel_size, name=f"rollout-{i}").remote(**kwargs)
        for i in range(ie_cfg.num_engines)
    ]


def main():
    cfg = OmegaConf.load(CONFIG_PATH)
    engines = create_engines(cfg)
    sp = cfg.generator.sampling_params
    params = SamplingParams(temperature=sp.temperature, top_k=sp.top_k, max_tokens=sp.max_generate_length)
    print(ray.get([engine.generate.remote(["2 + 2 ="], params) for engine in engines]))


if __name__ == "__main__":
    ray.init()
    main()
