"""Golden tests: every case folder under tests/fixtures/<area>/<case>/ is checked as a tree.

A case holds input files, `expected.txt` (the concise findings, paths relative to the case,
without the summary line) and optionally `args.txt` (extra command-line arguments, one per
line). Set REPLAYLINT_UPDATE_GOLDEN=1 to rewrite `expected.txt` from the current output;
review the diff before committing.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from replaylint.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(path.parent for path in FIXTURES.glob("*/*/expected.txt"))
UPDATE = os.environ.get("REPLAYLINT_UPDATE_GOLDEN") == "1"


def run_case(case: Path) -> str:
    args_file = case / "args.txt"
    extra = [line.strip() for line in args_file.read_text().splitlines() if line.strip()] if args_file.exists() else []
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(case)
    try:
        with contextlib.redirect_stdout(out):
            main(["check", "--output-format", "concise", "--no-respect-gitignore", *extra, "."])
    finally:
        os.chdir(cwd)
    summary = ("Found ", "[*] ", "All checks passed", "No fixes available")
    lines = [line.removeprefix("./") for line in out.getvalue().splitlines() if line and not line.startswith(summary)]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden(case: Path) -> None:
    actual = run_case(case)
    expected_file = case / "expected.txt"
    if UPDATE:
        expected_file.write_text(actual)
    assert actual == expected_file.read_text(), f"golden output differs for {case}"


def test_there_are_cases() -> None:
    assert CASES, "no golden fixture cases found"
