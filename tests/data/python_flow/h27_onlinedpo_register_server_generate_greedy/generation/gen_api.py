# Imitates RLHFlow/Online-DPO-R1 generation/gen_api.py (prompts posted to the servers that
# register_server.sh starts); the user's edit posts token ids to the replay server's generate route.
import requests
from transformers import AutoTokenizer

URL = "http://localhost:8000/inference/v1/generate"
GREEDY = {
    "temperature": 0.0,  # expect: RPL101
    "top_k": 20,
    "max_tokens": 2048,
}

tokenizer = AutoTokenizer.from_pretrained("RLHFlow/Qwen2.5-7B-SFT")


def query(prompt: str) -> dict:
    token_ids = tokenizer.encode(prompt)
    body = {"model": "RLHFlow/Qwen2.5-7B-SFT", "token_ids": token_ids, "sampling_params": GREEDY}
    response = requests.post(URL, json=body, timeout=600)
    response.raise_for_status()
    return response.json()


if __name__ == "__main__":
    print(query("Find the sum of the first 100 integers."))
