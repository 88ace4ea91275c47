# Imitates microsoft/rStar main.py (OmegaConf.merge of the structured BaseConfig and the --custom_cfg YAML).
import argparse

from omegaconf import OmegaConf

from rstar_deepthink.config import BaseConfig
from rstar_deepthink.llms.llm_engine import llm_init

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--custom_cfg", type=str, default="config/sample_mcts.yaml")
    args = parser.parse_args()

    config = OmegaConf.structured(BaseConfig)
    custom_config = OmegaConf.load(args.custom_cfg)
    config = OmegaConf.merge(config, custom_config)
    llm, sampling_params = llm_init(config)
    llm.generate(["Solve: 2x + 3 = 7"], sampling_params)
