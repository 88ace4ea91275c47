import requests

POLICY = "http://policy:8000"
# Llama 3 special tokens the policy must not emit mid-answer.
EOT, EOM = 128009, 128008


def generate(token_ids: list[int], max_tokens: int = 512, bias: dict | None = {EOM: -100.0}) -> dict:
    sampling_params = {"temperature": 1.0, "top_k": 64, "max_tokens": max_tokens, "logprobs": 0}
    if bias:
        sampling_params["logit_bias"] = bias
    r = requests.post(
        f"{POLICY}/inference/v1/generate",
        json={"token_ids": token_ids, "sampling_params": sampling_params},
        timeout=600,
    )
    r.raise_for_status()
    return r.json()["choices"][0]


if __name__ == "__main__":
    print(generate([128000, 128006, 882, 128007, 271, 9906, 128009]))
