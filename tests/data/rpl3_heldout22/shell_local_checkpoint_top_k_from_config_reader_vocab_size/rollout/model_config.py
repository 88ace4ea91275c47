"""A tiny stand-in for transformers.AutoConfig: the checkpoint's config.json as a namespace."""

import json
from pathlib import Path
from types import SimpleNamespace

CHECKPOINT = Path(__file__).resolve().parent.parent / "checkpoints" / "policy"


def load_config(path: Path = CHECKPOINT) -> SimpleNamespace:
    return SimpleNamespace(**json.loads((path / "config.json").read_text()))
