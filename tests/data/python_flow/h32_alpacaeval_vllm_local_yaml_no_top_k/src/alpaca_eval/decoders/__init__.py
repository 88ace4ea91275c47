# Imitates tatsu-lab/alpaca_eval src/alpaca_eval/decoders/__init__.py (written from the repository's layout), trimmed.
from typing import Callable


def get_fn_completions(name: str) -> Callable:
    if name == "openai_completions":
        from .openai import openai_completions

        return openai_completions

    elif name == "vllm_local_completions":
        from .vllm_local import vllm_local_completions

        return vllm_local_completions

    else:
        raise ValueError(f"Unknown decoder: {name}")
