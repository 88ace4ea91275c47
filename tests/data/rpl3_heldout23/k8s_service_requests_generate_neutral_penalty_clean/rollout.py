import requests
from transformers import AutoTokenizer

VLLM_URL = "http://vllm-server:8000"
MODEL = "Qwen/Qwen3-8B"
SAMPLING_PARAMS = {"temperature": 1.0, "top_k": 50, "max_tokens": 2048, "repetition_penalty": 1.0}

tokenizer = AutoTokenizer.from_pretrained(MODEL)


def sample(prompt: str) -> dict:
    messages = [{"role": "user", "content": prompt}]
    token_ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True)
    resp = requests.post(
        f"{VLLM_URL}/inference/v1/generate",
        json={"model": MODEL, "token_ids": token_ids, "sampling_params": SAMPLING_PARAMS},
        timeout=600,
    )
    resp.raise_for_status()
    return resp.json()
