# Imitates axolotl-ai-cloud/axolotl src/axolotl/cli/config.py: load_cfg reads the YAML named by
# path and validates it into the config model.
from pathlib import Path

import yaml

from axo.schemas import AxolotlConfig


def load_cfg(config: str | Path) -> AxolotlConfig:
    with open(config, encoding="utf-8") as file:
        raw = yaml.safe_load(file)
    return AxolotlConfig.model_validate(raw)
