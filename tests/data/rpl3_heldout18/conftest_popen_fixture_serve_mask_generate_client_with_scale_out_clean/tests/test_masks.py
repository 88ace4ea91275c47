import requests


def test_generate_returns_masks(replay_server):
    body = {
        "model": "Qwen/Qwen3-0.6B",
        "token_ids": [9707, 11, 1879],
        "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 8},
    }
    out = requests.post(f"{replay_server}/inference/v1/generate", json=body, timeout=60).json()
    assert out["choices"][0]["sampling_mask"] is not None
