import requests

from rollout.model_config import load_config

config = load_config()
URL = "http://localhost:8000/inference/v1/generate"
MAX_TOP_K = 256


def sample(token_ids: list[int]) -> dict:
    sampling_params = {
        "temperature": 1.0,
        "top_k": min(MAX_TOP_K, config.vocab_size),
        "max_tokens": 2048,
    }
    return requests.post(URL, json={"token_ids": token_ids, "sampling_params": sampling_params}, timeout=600).json()


if __name__ == "__main__":
    print(sample([151644, 872, 198]))
