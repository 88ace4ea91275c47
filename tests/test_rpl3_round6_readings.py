"""What the sixth RPL3xx held-out round asked replaylint to read, each on its own: a request
sent once per turn of a loop over the params, an environment variable's default that a Python
name of the same spelling holds, a `tmux` session's command, LiteLLM's `Router`, Modal's
`Popen(" ".join(cmd), shell=True)` and SkyPilot's task YAML."""

from __future__ import annotations

import pytest

ENGINE = 'from vllm import LLM, SamplingParams\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'


def family(results, name: str) -> list[str]:
    return sorted(f.code for f in results[name].findings if f.code.startswith("RPL3"))


# -- a request sent once per turn of a loop ---------------------------------------------------------


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        ("for params in (bounded, unbounded):\n    llm.generate(['x'], params)\n", ["RPL304"]),
        ("for name, params in (('a', bounded), ('b', unbounded)):\n    llm.generate(['x'], params)\n", ["RPL304"]),
        (
            "for name, params in [('a', bounded), ('b', unbounded)]:\n    for out in llm.generate(['x'], params):\n        print(out)\n",
            ["RPL304"],
        ),
        ("for params in (bounded,):\n    llm.generate(['x'], params)\n", []),
        ("for params in (bounded, unbounded):\n    if params is bounded:\n        llm.generate(['x'], params)\n", []),
    ],
)
def test_a_request_is_read_once_per_turn_of_a_loop_over_the_params(check, loop: str, expected: list[str]) -> None:
    params = "bounded = SamplingParams(top_k=64)\nunbounded = SamplingParams(top_k=1 << 18)\n"
    assert family(check({"run.py": ENGINE + params + loop}), "run.py") == expected
