"""Golden tests: every case folder under fixtures/<area>/<case>/ is checked as a tree.

A case holds input files, `expected.txt` (the concise findings, paths relative to the case,
without the summary line) and optionally `args.txt` (extra command-line arguments, one per
line). A case with a `fixed/` folder is also fixed (`--fix --unsafe-fixes`) in a copy: every
file that changes must equal its twin under `fixed/`, no other file may change, and a second
`--fix` must change nothing. Set REPLAYLINT_UPDATE_GOLDEN=1 to rewrite `expected.txt` and
`fixed/` from the current output; review the diff before committing.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import pytest

from replaylint.cli.main import main

FIXTURES = Path(__file__).parent.parent / "fixtures"
CASES = sorted(path.parent for path in FIXTURES.glob("*/*/expected.txt"))
FIX_CASES = [case for case in CASES if (case / "fixed").is_dir()]
UPDATE = os.environ.get("REPLAYLINT_UPDATE_GOLDEN") == "1"


def _extra_args(case: Path) -> list[str]:
    args_file = case / "args.txt"
    return [line.strip() for line in args_file.read_text().splitlines() if line.strip()] if args_file.exists() else []


def _run_in(folder: Path, *args: str) -> str:
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "concise", "--no-respect-gitignore", "--no-cache", "--extend-exclude", "fixed", *args, "."])
    finally:
        os.chdir(cwd)
    return out.getvalue()


def _inputs(folder: Path) -> dict[str, bytes]:
    skip = {"expected.txt", "args.txt"}
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in skip and "fixed" not in path.relative_to(folder).parts[:1]
    }


def run_case(case: Path) -> str:
    output = _run_in(case, *_extra_args(case))
    summary = ("Found ", "[*] ", "All checks passed", "No fixes available")
    lines = [line.removeprefix("./") for line in output.splitlines() if line and not line.startswith(summary)]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden(case: Path) -> None:
    actual = run_case(case)
    expected_file = case / "expected.txt"
    if UPDATE:
        expected_file.write_text(actual)
    assert actual == expected_file.read_text(), f"golden output differs for {case}"


@pytest.mark.parametrize("case", FIX_CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_fix(case: Path, tmp_path: Path) -> None:
    work = tmp_path / "case"
    shutil.copytree(case, work, ignore=shutil.ignore_patterns("fixed"))
    before = _inputs(work)
    _run_in(work, "--fix", "--unsafe-fixes", *_extra_args(case))
    after = _inputs(work)
    changed = {name: data for name, data in after.items() if before.get(name) != data}
    expected_dir = case / "fixed"
    if UPDATE:
        shutil.rmtree(expected_dir)
        expected_dir.mkdir()
        for name, data in changed.items():
            (expected_dir / name).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / name).write_bytes(data)
    expected = _inputs(expected_dir)
    assert changed == expected, f"--fix output differs for {case}"
    _run_in(work, "--fix", "--unsafe-fixes", *_extra_args(case))
    assert _inputs(work) == after, f"a second --fix changed {case}"


def test_there_are_cases() -> None:
    assert CASES, "no golden fixture cases found"
