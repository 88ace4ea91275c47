import json
from pathlib import Path

import requests

REQUEST = json.loads((Path(__file__).resolve().parent.parent / "configs" / "request.json").read_text())


def think(token_ids: list[int]) -> dict:
    body = {**REQUEST, "token_ids": token_ids}
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=3600).json()


if __name__ == "__main__":
    print(think([151644, 872, 198])["choices"][0]["sampling_mask"])
