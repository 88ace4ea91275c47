# Imitates hkust-nlp/simpleRL-reason verl/trainer/main_generation.py with
# verl/trainer/config/generation.yaml (a rollout config read into OmegaConf), loaded here by path
# with `OmegaConf.load` and spread into `LLM` / `SamplingParams` through `OmegaConf.to_container`.
import os

from omegaconf import OmegaConf
from vllm import LLM, SamplingParams

CONFIG_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "config", "generation.yaml")


def main():
    config = OmegaConf.load(CONFIG_PATH)
    engine_kwargs = OmegaConf.to_container(config.engine, resolve=True)
    llm = LLM(model=config.model.path, **engine_kwargs)
    sampling_params = SamplingParams(
        temperature=config.rollout.temperature,
        top_k=config.rollout.top_k,
        top_p=config.rollout.top_p,
        max_tokens=config.rollout.response_length,
    )
    outputs = llm.generate(["Let's think step by step."], sampling_params)
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()
