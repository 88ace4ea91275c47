"""Issue 27, item 5: a finding a launch makes at another line or in another file (RPL206 at the
`os.environ[...] = "0"` that sets the runner variable, in a helper's module) is silenced by a
suppression on the launch's line that names its code, as users suppress at the launch; the
suppression is then used (no RPL901). A bare `# noqa` (other linters' too) covers its own line
only, as in ruff; a finding another launch also makes stays until each launch suppresses it."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

ENGINE = 'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")'
WRITE = 'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"'


def check(tmp_path: Path, files: dict[str, str], codes: tuple[str, ...] = ("RPL003", "RPL206", "RPL901")) -> list[tuple[str, int, str]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--isolated", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()) if f["code"] in codes)


def _same_file(comment: str) -> dict[str, str]:
    return {"run.py": f"import os\n\n{WRITE}\nfrom vllm import LLM\n\n{ENGINE}{comment}\n"}


def _helper(comment: str) -> dict[str, str]:
    return {
        "env.py": f"import os\n\n\ndef setup():\n    {WRITE}\n",
        "main.py": f"from env import setup\nfrom vllm import LLM\n\nsetup()\n{ENGINE}{comment}\n",
    }


@pytest.mark.parametrize("files", [_same_file, _helper])
@pytest.mark.parametrize("comment", ["  # noqa: RPL206", "  # replaylint: ignore[RPL206]", "  # noqa: E501, runner-variable-removed"])
def test_a_suppression_on_the_launch_s_line_covers_its_finding_placed_elsewhere(tmp_path: Path, files, comment: str) -> None:
    assert check(tmp_path, files(comment)) == []


@pytest.mark.parametrize(
    ("files", "where", "launch"), [(_same_file, ("run.py", 3), ("run.py", 6)), (_helper, ("env.py", 5), ("main.py", 5))]
)
def test_another_code_or_a_bare_noqa_on_the_launch_s_line_does_not(tmp_path: Path, files, where: tuple, launch: tuple) -> None:
    assert check(tmp_path / "other", files("  # noqa: RPL003")) == sorted([(*where, "RPL206"), (*launch, "RPL901")])
    assert check(tmp_path / "bare", files("  # noqa")) == [(*where, "RPL206")]


def test_a_finding_two_launches_make_stays_until_both_suppress_it(tmp_path: Path) -> None:
    two = f"import os\n\n{WRITE}\nfrom vllm import LLM\n\n{ENGINE}  # noqa: RPL206\n{ENGINE.replace('m', 'n', 1)}SECOND\n"
    assert check(tmp_path / "one", {"run.py": two.replace("SECOND", "")}) == [("run.py", 3, "RPL206")]  # the comment is not unused
    assert check(tmp_path / "both", {"run.py": two.replace("SECOND", "  # noqa: RPL206")}) == []


def test_a_shell_launch_s_line_covers_the_export_above(tmp_path: Path) -> None:
    script = (
        "#!/bin/bash\nexport VLLM_USE_V2_MODEL_RUNNER=0\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobsCOMMENT\n"
    )
    assert check(tmp_path / "bare", {"serve.sh": script.replace("COMMENT", "")}) == [("serve.sh", 2, "RPL206")]
    assert check(tmp_path / "named", {"serve.sh": script.replace("COMMENT", "  # replaylint: ignore[RPL206]")}) == []


def _notebook(*cells: str) -> str:
    code = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": cell} for cell in cells]
    return json.dumps({"cells": code, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize(
    ("first", "second", "expected"), [("", "", 1), ("  # noqa: RPL206", "", 1), ("  # noqa: RPL206", "  # noqa: RPL206", 0)]
)
def test_a_notebook_s_launches_suppress_the_cell_that_sets_the_variable(tmp_path: Path, first: str, second: str, expected: int) -> None:
    setup = f"import os\n{WRITE}"
    engines = f"from vllm import LLM\n{ENGINE}{first}\n{ENGINE.replace('m', 'n', 1)}{second}"
    found = check(tmp_path, {"rollout.ipynb": _notebook(setup, engines)})
    assert [code for _, _, code in found] == ["RPL206"] * expected
