# Imitates NovaSky-AI/SkyRL skyrl/train/config/config.py's SamplingParams defaults (top_k -1
# there), kept as the client's default body fields and merged with each call's overrides.
DEFAULT_SAMPLING = {
    "temperature": 1.0,
    "top_p": 1.0,
    "top_k": 20,
    "max_tokens": 1024,
}


def generate_body(token_ids: list[int], **overrides) -> dict:
    return {"token_ids": token_ids, "sampling_params": {**DEFAULT_SAMPLING, **overrides}}
