from pathlib import Path

import yaml

TABLE = Path(__file__).resolve().parent.parent / "configs" / "sampling.yaml"


def extra_body_for(model: str) -> dict:
    table = yaml.safe_load(TABLE.read_text())
    return {**table["defaults"], **table["models"].get(model, {})}
