import json
from pathlib import Path

import requests

TASKS = json.loads((Path(__file__).parent.parent / "configs" / "tasks.json").read_text())
ENDPOINT = "http://localhost:8000/inference/v1/generate"


def generate(task: str, token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": TASKS[task]}
    return requests.post(ENDPOINT, json=body, timeout=600).json()
