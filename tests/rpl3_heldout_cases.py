"""What the RPL3xx held-out rounds (tests/test_rpl3_heldout*.py) share: each case folder checked
as `replaylint check CASE/` would (the preview rules selected for `preview_*` cases), and the
checks that every folder is a case, a third are clean and each README says what it imitates; the
cases for `parametrize` (`held_out`), and the findings of a tree checked by paths (`found`, also for
the `--config` launcher tests)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

PREVIEW = ("--extend-select", "RPL307,RPL308,RPL309")


def findings(root: Path, *options: str) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--target-vllm", "0.34.0", "--output-format", "json", *options, str(root)])
    return json.loads(out.getvalue())


def found(root: Path, *paths: str) -> list[tuple[str, str, int]]:
    """(code, file, line) of each finding under `root`, checked as `replaylint check PATH...` (the folder
    itself without paths) would, without a cache, for vLLM 0.34.0."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(
            [
                "check",
                "--no-respect-gitignore",
                "--no-cache",
                "--target-vllm",
                "0.34.0",
                "--output-format",
                "json",
                *(str(root / p) for p in paths or ("",)),
            ]
        )
    return sorted(
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in json.loads(out.getvalue())
    )


def reported(corpus: Path, case: str) -> set[tuple[str, str, int]]:
    """(code, file, line) of each finding in the case's folder, checked without a cache."""
    root = corpus / case
    options = PREVIEW if case.startswith("preview_") else ()
    return {
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in findings(root, "--no-cache", *options)
    }


def assert_cases_are_the_folders(corpus: Path, expected: dict, at_least: int) -> None:
    folders = sorted(path.name for path in corpus.iterdir() if path.is_dir())
    assert folders == sorted(expected)
    clean = [case for case, found in expected.items() if not found]
    assert len(expected) >= at_least
    assert len(clean) * 3 >= len(expected), clean


def assert_each_readme_says_what_it_imitates(corpus: Path, expected: dict) -> None:
    for case in expected:
        assert "Imitates" in (corpus / case / "README").read_text(), case


def assert_case_findings(corpus: Path, expected: dict, case: str) -> None:
    got = reported(corpus, case)
    want = expected[case]
    assert got == want, f"{case}: missed {sorted(want - got)}, false {sorted(got - want)}"


def held_out(expected: dict, pending: dict[str, str]) -> list:
    """A held-out round's cases for `parametrize`, those `pending` as strict xfails with their reason."""
    return [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=pending[case])) if case in pending else case
        for case in sorted(expected)
    ]
