from rollout.clients import make_client


def rollout(batch: list[list[int]]) -> list[list[list[int]]]:
    masks = []
    with make_client() as client:
        for token_ids in batch:
            body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 50}}
            out = client.post("/inference/v1/generate", json=body).json()
            masks.append(out["choices"][0]["sampling_mask"])
    return masks


if __name__ == "__main__":
    print(rollout([[151644, 872, 198]]))
