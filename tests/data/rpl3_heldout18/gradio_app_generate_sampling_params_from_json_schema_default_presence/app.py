import json
from pathlib import Path

import gradio as gr
import requests

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sampling.schema.json").read_text())
DEFAULTS = {name: spec["default"] for name, spec in SCHEMA["properties"].items()}


def generate(token_ids: str) -> str:
    body = {
        "model": "Qwen/Qwen3-0.6B",
        "token_ids": [int(t) for t in token_ids.split()],
        "sampling_params": DEFAULTS,
    }
    out = requests.post("http://127.0.0.1:8000/inference/v1/generate", json=body, timeout=120).json()
    return json.dumps(out["choices"][0], indent=2)


gr.Interface(fn=generate, inputs="text", outputs="code").launch()
