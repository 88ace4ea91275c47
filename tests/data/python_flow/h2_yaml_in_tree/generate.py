# Imitates alibaba/ROLL roll/pipeline/ (configs read with `yaml.safe_load` from a file of the
# tree, its path built from `__file__`), the engine section spread into `LLM(...)`.
from pathlib import Path

import yaml
from vllm import LLM

CONFIG_PATH = Path(__file__).parent / "configs" / "rollout.yaml"


def load_config():
    with open(CONFIG_PATH) as handle:
        return yaml.safe_load(handle)


config = load_config()
llm = LLM(**config["engine"])
