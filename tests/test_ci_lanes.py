"""CI's two lanes (.ci/run): the suite, README's test command, and beside it the judges
(.ci/judges), which also run the suite's slow end-to-end tests so that the longer lane is not
longer still. Each slow test runs in exactly one lane."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _pytest(folder: Path, *args: str, beside: bool) -> str:
    env = {key: value for key, value in os.environ.items() if key != "REPLAYLINT_SLOW_TESTS"}
    if beside:
        env["REPLAYLINT_SLOW_TESTS"] = "beside"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore", "-rs", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


def test_the_suite_in_ci_skips_the_slow_tests_that_the_judges_lane_runs(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text((REPO / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "test_lanes.py").write_text(
        "import pytest\n\n@pytest.mark.slow\ndef test_build():\n    pass\n\ndef test_quick():\n    pass\n"
    )
    assert "2 passed" in _pytest(tmp_path, beside=False)  # a user's run: everything
    suite = _pytest(tmp_path, beside=True)
    assert "1 passed, 1 skipped" in suite and "run beside the suite by .ci/judges" in suite
    assert "1 passed, 1 deselected" in _pytest(tmp_path, "-m", "slow", beside=True)  # the judges' lane


def test_ci_sets_the_lanes_up_so() -> None:
    run, judges = ((REPO / ".ci" / name).read_text(encoding="utf-8") for name in ("run", "judges"))
    assert run.index("export REPLAYLINT_SLOW_TESTS=beside") < run.index(".venv/bin/python -m pytest")
    assert run.index(".ci/judges >") < run.index("export REPLAYLINT_SLOW_TESTS=beside")  # the judges' lane does not inherit it
    assert '"$venv"/bin/python -m pytest -m slow' in judges
