"""Sample a few rollouts with their sampling masks for the replay regression check."""

import json

import requests
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen3-8B")
token_ids = tokenizer.apply_chat_template(
    [{"role": "user", "content": "What is 17 * 23?"}], add_generation_prompt=True
)

response = requests.post(
    "http://localhost:8000/inference/v1/generate",
    json={
        "token_ids": token_ids,
        "sampling_params": {"temperature": 0.6, "top_p": 0.95, "top_k": 20, "max_tokens": 4096, "logprobs": 0},
    },
    timeout=900,
)
response.raise_for_status()
with open("masks.json", "w") as f:
    json.dump(response.json()["choices"][0]["sampling_mask"], f)
