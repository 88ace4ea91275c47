# Imitates MARIO-Math-Reasoning/Super_MARIO solver_demo.py (OmegaConf.structured(BaseConfig) merged with a YAML
# loaded by path, then llm_engine(config) and generate); the user turned sampling replay on.
from omegaconf import OmegaConf

from mcts_math.config import BaseConfig
from mcts_math.llms.local_llm_engine import llm_engine

if __name__ == "__main__":
    config = OmegaConf.structured(BaseConfig)
    custom_config = OmegaConf.load("configs/sbs_sft.yaml")
    config = OmegaConf.merge(config, custom_config)
    config = OmegaConf.create(OmegaConf.to_yaml(config, resolve=True))
    engine, sampling_params = llm_engine(config)
    outputs = engine.generate(["Question: what is 2 + 3?\n"], sampling_params=sampling_params)
    print(outputs[0].outputs[0].text)
