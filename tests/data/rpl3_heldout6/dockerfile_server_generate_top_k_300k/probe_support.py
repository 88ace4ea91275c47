"""How big do the sampling masks get when top-k is effectively off? (top_k must be > 0 with replay.)"""

import requests

URL = "http://localhost:8000/inference/v1/generate"
PROMPT_IDS = [151646, 151644, 3838, 374, 220, 17, 10, 17, 30, 151645, 151648, 198]

resp = requests.post(
    URL,
    json={
        "token_ids": PROMPT_IDS,
        "sampling_params": {"temperature": 1.0, "top_k": 300000, "max_tokens": 64, "logprobs": 0},
    },
    timeout=120,
)
resp.raise_for_status()
choice = resp.json()["choices"][0]
print([len(support) for support in choice["sampling_mask"]])
