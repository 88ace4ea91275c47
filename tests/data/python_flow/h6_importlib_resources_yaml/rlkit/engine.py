# Imitates NVIDIA-NeMo/Skills' packaged configs (YAML shipped inside the package and read with
# importlib.resources.files(...).joinpath(...).read_text()), handed to the engine
from importlib.resources import files

import yaml
from vllm import LLM


def engine_kwargs() -> dict:
    text = files("rlkit.configs").joinpath("engine.yaml").read_text()
    return yaml.safe_load(text)["vllm"]


def build_engine() -> LLM:
    return LLM(**engine_kwargs())
