"""The differential tests run only when asked for, and only where the judge is installed."""

from __future__ import annotations

import os

import pytest

from .harness import judge_python

SELECT_HINT = "run them with `pytest -m differential` (or REPLAYLINT_DIFFERENTIAL=1, or .ci/differential)"


def selected(config: pytest.Config) -> bool:
    return "differential" in (config.option.markexpr or "") or os.environ.get("REPLAYLINT_DIFFERENTIAL") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not selected(config):
        reason = f"differential tests against the real vLLM are opt-in: {SELECT_HINT}"
    elif not judge_python().exists():
        reason = f"the vLLM judge environment is absent ({judge_python()}): run scripts/setup-vllm-judge.sh"
    else:
        return
    for item in items:
        if item.get_closest_marker("differential"):
            item.add_marker(pytest.mark.skip(reason=reason))
