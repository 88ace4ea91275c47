import httpx

from rollout.defaults import DEFAULT_GEN_KWARGS

SERVER = "http://localhost:8000"


def generate(client: httpx.Client, token_ids: list[int], **gen_kwargs) -> dict:
    body = {"token_ids": token_ids, "sampling_params": gen_kwargs}
    return client.post(f"{SERVER}/inference/v1/generate", json=body).json()


def main() -> None:
    with httpx.Client(timeout=600) as client:
        # Replay: the trainer rebuilds softmax(logits / T) over the mask, so no penalty here.
        out = generate(client, [151644, 872, 198], **{**DEFAULT_GEN_KWARGS, "repetition_penalty": 1.0})
        print(out["choices"][0]["sampling_mask"])


if __name__ == "__main__":
    main()
