# Imitates mistralai/mistral-evals eval/models.py (get_vllm_model_fn), moved by the user to the scale-out
# route that returns the sampling masks.
import requests


def get_vllm_model_fn(url):
    def model_fn(token_ids):
        response = requests.post(
            f"{url}/inference/v1/generate",
            json={
                "token_ids": token_ids,
                "sampling_params": {"temperature": 0.7, "top_k": 50, "max_tokens": 512},
            },
        )
        return response.json()

    return model_fn
