# Imitates Kwai-Klear/Klear1.0 README.md (SamplingParams(temperature=0.6, top_p=0.95, top_k=40)), sent as the
# sampling_params of a token-in/token-out request to the server serve_klear.sh starts.
import requests

SERVER = "http://localhost:8000"
SAMPLING = {"temperature": 0.6, "top_p": 0.95, "top_k": 40, "max_tokens": 1024}


def rollout(token_ids: list[int]) -> dict:
    body = {"model": "/path/to/Klear-Instruct", "token_ids": token_ids, "sampling_params": dict(SAMPLING)}
    resp = requests.post(f"{SERVER}/inference/v1/generate", json=body, timeout=600)
    resp.raise_for_status()
    return resp.json()


if __name__ == "__main__":
    print(rollout([151644, 872, 198]))
