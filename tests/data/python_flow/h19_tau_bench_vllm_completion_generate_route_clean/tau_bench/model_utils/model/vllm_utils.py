# Imitates sierra-research/tau-bench tau_bench/model_utils/model/vllm_utils.py (generate_request), on the scale-out route
from typing import Any

import requests

from tau_bench.model_utils.model.general_model import wrap_temperature


def generate_request(
    url: str,
    prompt_token_ids: list[int],
    temperature: float = 0.0,
    force_json: bool = False,
    **req_body_kwargs: Any,
) -> dict:
    sampling_params = {
        "temperature": wrap_temperature(temperature),
        "top_k": 20,
        "max_tokens": 4096,
        **req_body_kwargs,
    }
    if force_json:
        # the prompt will have a suffix of '```json\n' to indicate that the response should be a JSON object
        sampling_params["stop"] = ["```"]
    res = requests.post(
        url,
        json={"token_ids": prompt_token_ids, "sampling_params": sampling_params},
    )
    res.raise_for_status()
    json_res = res.json()
    if "choices" not in json_res:
        raise ValueError(f"Unexpected response: {json_res}")
    return json_res["choices"][0]
