"""The Python value flow, on a corpus of cases written from real RL repositories' patterns
(tests/data/python_flow/: one folder per case, its first comment citing what it imitates).

A case's expected findings are comments on the lines where they must be reported:
`# expect: RPL003` (and, optionally, a fragment of the message in double quotes). A case
without one is clean. Every case is checked as `replaylint check CASE/` would, against vLLM
0.34.0; then, with `--fix --unsafe-fixes`, every fixable finding is fixed where it is reported
(in whichever file), and a second run changes nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from replaylint.cli import main

CORPUS = Path(__file__).parent / "data" / "python_flow"
CASES = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
_EXPECT = re.compile(r'#\s*expect:\s*(RPL\d{3})(?:\s+"(.*)")?')


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", *args])
    return status, out.getvalue()


def expected(case: Path) -> dict[tuple[str, int, str], str]:
    found = {}
    for path in sorted(case.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in _EXPECT.finditer(line):
                found[(path.relative_to(case).as_posix(), number, match.group(1))] = match.group(2) or ""
    return found


def findings(case: Path) -> list[dict]:
    _, out = cli("--output-format", "json", str(case))
    return json.loads(out)


def reported(case: Path) -> dict[tuple[str, int, str], str]:
    return {
        (Path(item["filename"]).resolve().relative_to(case.resolve()).as_posix(), item["location"]["row"], item["code"]): item["message"]
        for item in findings(case)
    }


def test_the_corpus_is_a_third_clean() -> None:
    clean = [case for case in CASES if not expected(CORPUS / case)]
    assert len(CASES) >= 30
    assert len(clean) * 3 >= len(CASES), clean


def test_every_case_cites_what_it_imitates() -> None:
    for case in CASES:
        first = next(iter(sorted((CORPUS / case).rglob("*.py")))).read_text()
        assert first.startswith("# Imitates "), case


@pytest.mark.parametrize("case", CASES)
def test_case_findings(case: str) -> None:
    want = expected(CORPUS / case)
    got = reported(CORPUS / case)
    assert set(got) == set(want), f"{case}: reported {sorted(got)}, expected {sorted(want)}"
    for key, fragment in want.items():
        assert fragment in got[key], f"{case}: {key} says {got[key]!r}, expected {fragment!r} in it"


@pytest.mark.parametrize("case", [case for case in CASES if expected(CORPUS / case)])
def test_case_fix_is_written_where_it_decides_and_holds(case: str, tmp_path: Path) -> None:
    copy = tmp_path / case
    shutil.copytree(CORPUS / case, copy)
    fixable = {(f["filename"], f["location"]["row"]) for f in findings(copy) if f["fix"] and f["fix"]["edits"]}
    cli("--fix", "--unsafe-fixes", str(copy))
    after = {path: path.read_text() for path in sorted(copy.rglob("*.py"))}
    left = {(f["filename"], f["location"]["row"]) for f in findings(copy) if f["fix"] and f["fix"]["edits"]}
    assert not left & fixable, f"{case}: fixable findings remain after --fix: {left}"
    if fixable:
        assert after != {path: (CORPUS / case / path.relative_to(copy)).read_text() for path in after}
    cli("--fix", "--unsafe-fixes", str(copy))
    assert {path: path.read_text() for path in sorted(copy.rglob("*.py"))} == after, "a second --fix changed the files"
