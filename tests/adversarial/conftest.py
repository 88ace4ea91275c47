"""The adversarial suite: a checked tree may be hostile (README "Security").

Each case runs replaylint as a user or CI job would, on a tree an attacker or an unlucky user
made, and asserts what replaylint promises: nothing from the tree runs, nothing outside it is
written, nothing hangs, every problem is a message or a finding. Every test here has a time
limit (pytest-timeout): a case that hangs fails instead of stopping the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TIME_LIMIT = 60  # seconds: each case ends within a few; a hang fails here


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TIME_LIMIT))


def replaylint(*args: str, cwd: Path, stdin: bytes | None = None, timeout: float = 30, env: dict | None = None, user: int | None = None):
    """`python -m replaylint ARGS` in `cwd` as a separate process (a hang is a failure, not a
    stuck suite); `user` runs it under that uid (root only)."""
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "replaylint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=environment,
        user=user,
    )
