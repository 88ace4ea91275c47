from pathlib import Path

import httpx
import yaml

from rollout.special_tokens import SPECIAL_TOKEN_IDS

CONF = yaml.safe_load((Path(__file__).parent.parent / "conf" / "rollout.yaml").read_text())
SUPPRESS = {token_id: -100.0 for token_id in SPECIAL_TOKEN_IDS.values()}

client = httpx.Client(base_url=CONF["server"]["base_url"], timeout=CONF["server"]["timeout_s"])


def generate(prompt_ids: list[int]) -> dict:
    sampling_params = dict(CONF["sampling"], logit_bias=SUPPRESS)
    response = client.post("/inference/v1/generate", json={"token_ids": prompt_ids, "sampling_params": sampling_params})
    response.raise_for_status()
    return response.json()
