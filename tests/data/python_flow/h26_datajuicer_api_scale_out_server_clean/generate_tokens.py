# Imitates modelscope/data-juicer data_juicer/utils/model_utils.py (an API model posting to a local endpoint with
# requests and a sampling dict), pointed at vLLM's token-in/token-out route.
import requests

ENDPOINT = 'http://localhost:8000/inference/v1/generate'
SAMPLING = {'temperature': 0.8, 'top_k': 20, 'top_p': 0.95, 'max_tokens': 128}


def generate(token_ids):
    body = {'model': 'Qwen/Qwen2.5-7B-Instruct', 'token_ids': token_ids, 'sampling_params': SAMPLING}
    resp = requests.post(ENDPOINT, json=body, timeout=600)
    resp.raise_for_status()
    return resp.json()


print(generate([151644, 872, 198]))
