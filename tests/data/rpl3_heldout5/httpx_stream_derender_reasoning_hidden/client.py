import json

import httpx

URL = "http://localhost:8000/inference/v1/generate"


def stream_episode(token_ids: list[int]):
    with httpx.stream("POST", URL, json={"token_ids": token_ids, "sampling_params": {"temperature": 0.7, "top_k": 20, "max_tokens": 2048}, "output_mode": "derender", "parse_context": {"include_reasoning": False}, "stream": True}, timeout=None) as resp:
        for line in resp.iter_lines():
            if line.startswith("data: ") and line != "data: [DONE]":
                yield json.loads(line[6:])
