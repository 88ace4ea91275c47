import httpx

ENGINE = "http://generate.default.svc.cluster.local"


def sample(token_ids: list[int]) -> dict:
    with httpx.Client(base_url=ENGINE, timeout=None) as client:
        return client.post("/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": {"top_k": 20}}).json()
