# Imitates mistralai/mistral-evals eval/models.py (get_vllm_model_fn: requests.post to {url}/v1/chat/completions).
import json

import requests


def get_vllm_model_fn(model_name, url):
    def model_fn(request_dict):
        request_dict["model"] = model_name
        response = requests.post(
            f"{url}/v1/chat/completions",
            headers={"Content-Type": "application/json"},
            data=json.dumps(request_dict),
        )
        return response.json()["choices"][0]["message"]["content"]

    return model_fn
