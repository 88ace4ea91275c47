"""`--statistics` in the output format asked for: ruff's JSON array under `--output-format json`,
flake8's table under the text formats, an error (exit 2) under formats that have no statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_report_ci_formats import replaylint, ruff, write
from tests.test_report_formats import PYTHON_BAD, SHELL_WARNING

TWICE = "from vllm import LLM\nLLM('m', return_sampling_mask=True)\nLLM('m', return_sampling_mask=True, logits_processors=['a:B'])\n"


def statistics(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    write(tmp_path, {"a.py": PYTHON_BAD, "b.py": TWICE, "serve.sh": SHELL_WARNING})
    return replaylint(tmp_path, "--statistics", *args, "a.py", "b.py", "serve.sh")


def test_json_statistics_are_rufs_array(tmp_path: Path) -> None:
    status, out, err = statistics(tmp_path, "--output-format", "json")
    assert status == 1 and not err
    rows = json.loads(out)
    assert rows == [
        {"code": "RPL003", "name": "sampling-mask-requires-processed-logprobs", "count": 4, "fixable": True, "fixable_count": 4},
        {"code": "RPL001", "name": "logits-processors-with-sampling-mask", "count": 2, "fixable": False, "fixable_count": 0},
        {"code": "RPL203", "name": "broken-line-continuation", "count": 1, "fixable": False, "fixable_count": 0},
    ]


def test_json_statistics_count_unsafe_fixes_only_when_enabled(tmp_path: Path) -> None:
    _, out, _ = statistics(tmp_path, "--output-format", "json", "--unsafe-fixes")
    by_code = {row["code"]: row for row in json.loads(out)}
    assert by_code["RPL001"]["fixable"] is True and by_code["RPL001"]["fixable_count"] == 2


def test_json_statistics_have_rufs_fields(tmp_path: Path) -> None:
    theirs = json.loads(ruff(tmp_path, "json", "--statistics"))
    _, out, _ = statistics(tmp_path / "ours", "--output-format", "json")
    assert [list(row) for row in json.loads(out)] == [list(theirs[0])] * 3
    assert {type(value).__name__ for row in theirs for value in row.values()} == {"str", "int", "bool"}


def test_json_statistics_of_a_clean_run_are_an_empty_array(tmp_path: Path) -> None:
    write(tmp_path, {"ok.sh": "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --top-k 5 --enable-scale-out\n"})
    status, out, _ = replaylint(tmp_path, "--statistics", "--output-format", "json", "ok.sh")
    assert status == 0 and json.loads(out) == []


@pytest.mark.parametrize("name", ["full", "concise", "grouped"])
def test_text_formats_keep_the_table(tmp_path: Path, name: str) -> None:
    status, out, _ = statistics(tmp_path, "--output-format", name)
    assert status == 1
    assert out.splitlines() == [
        "    4\tRPL003\t[*] sampling-mask-requires-processed-logprobs",
        "    2\tRPL001\t    logits-processors-with-sampling-mask",
        "    1\tRPL203\t    broken-line-continuation",
    ]


@pytest.mark.parametrize("name", ["sarif", "json-lines", "gitlab", "github"])
def test_formats_without_statistics_are_a_usage_error(tmp_path: Path, name: str) -> None:
    status, out, err = statistics(tmp_path, "--output-format", name)
    assert status == 2 and out == ""
    assert err.startswith(f"replaylint: error: --statistics cannot be shown as {name}") and "Traceback" not in err
