import httpx

DEFAULTS = dict(temperature=1.0, top_k=32, max_tokens=2048)


def build_params(step: int) -> dict:
    params = dict(DEFAULTS)
    params.update(frequency_penalty=0.2)
    return params


def sample(token_ids: list[int], step: int) -> dict:
    body = {"token_ids": token_ids, "sampling_params": build_params(step)}
    return httpx.post("http://localhost:8000/inference/v1/generate", json=body, timeout=None).json()
