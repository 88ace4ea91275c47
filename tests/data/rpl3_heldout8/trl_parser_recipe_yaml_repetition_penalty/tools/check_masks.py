"""Spot check of the replay masks: one prompt through the server's token-in/token-out route."""

import requests
from transformers import AutoTokenizer

MODEL = "Qwen/Qwen2.5-1.5B-Instruct"

tokenizer = AutoTokenizer.from_pretrained(MODEL)
prompt_ids = tokenizer.apply_chat_template(
    [{"role": "user", "content": "What is 17 * 23?"}], add_generation_prompt=True, tokenize=True
)
resp = requests.post(
    "http://localhost:8000/inference/v1/generate",
    json={
        "model": MODEL,
        "token_ids": prompt_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 256, "logprobs": 0},
    },
    timeout=300,
)
resp.raise_for_status()
for choice in resp.json()["choices"]:
    print(len(choice["token_ids"]), [len(m) for m in choice["sampling_mask"]][:10])
