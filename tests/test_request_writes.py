"""What a fork's `generate` does to the request dict before `SamplingParams(**NAME)`
(frameworks/request_writes.py): the request's settings as vLLM gets them."""

from __future__ import annotations

import pytest

from replaylint.frameworks import request_writes
from replaylint.model import UNKNOWN, Setting, Span

SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
ANCHOR = Span("run.sh", 1, 1, 1, 2, 0, 1)
GENERATE = (
    "class Server:\n"
    "    async def generate(self, prompt_ids, sampling_params, request_id):\n"
    "        key = self.dropped\n"
    "{body}"
    "        params = SamplingParams(max_tokens=16, **sampling_params)\n"
)


def applied(body: str, **carried: object) -> dict[str, object]:
    path = request_writes.read(GENERATE.format(body=body), SERVER, "generate")
    assert path is not None
    settings = {key: Setting(key, value, ANCHOR, f"{key}={value}") for key, value in carried.items()}
    return {key: setting.value for key, setting in path.applied(settings, ANCHOR, "the forked verl").items()}


@pytest.mark.parametrize(
    ("body", "carried", "expected"),
    [
        pytest.param("        del sampling_params[key]\n", {"top_k": 20}, {"top_k": UNKNOWN}, id="del of a key not written out"),
        pytest.param('        del sampling_params["top_p"]\n', {"top_k": 20}, {"top_k": 20}, id="del of another key"),
        pytest.param(
            '        sampling_params["top_k"] = 20\n', {"temperature": 1.0}, {"temperature": 1.0, "top_k": 20}, id="a new key set"
        ),
        pytest.param('        sampling_params.setdefault("top_k", 20)\n', {}, {"top_k": 20}, id="setdefault of a new key"),
        pytest.param('        sampling_params.setdefault("top_k", 20)\n', {"top_k": 50}, {"top_k": 50}, id="setdefault of a carried key"),
        pytest.param(
            '        if prompt_ids:\n            sampling_params["top_k"] = 20\n', {}, {"top_k": UNKNOWN}, id="a new key set under a test"
        ),
    ],
)
def test_the_request_as_sampling_params_gets_it(body: str, carried: dict, expected: dict) -> None:
    assert applied(body, **carried) == expected
