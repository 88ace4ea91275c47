"""Fork trees kept as one base per framework plus a patch per case (tests/data/forks_base/).

A case folder holds `base` (the name of its framework's folder under tests/data/forks_base/; more
names, one a line, lay more folders of files over it: `openrlhf_rollout` adds the OpenRLHF file that
builds its requests, which rounds 1 and 2 do not have; `openrlhf_caller` its `train_ppo_ray.py` at
3c3be62, the caller of `create_vllm_engines`; `nemo_rl_examples` NeMo-RL's `examples/run_grpo.py`),
`edits.patch` (a unified diff of the edits it makes to that base's files, as `diff -u` writes it)
and the files of its own (its README, its launch). `materialize` lays the tree out in a folder
of its own: the base copied, the patch applied (its context must match, line for line), the
case's files over them."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from replaylint.cli.main import main

BASES = Path(__file__).parent / "data" / "forks_base"
_OWN = ("base", "edits.patch")
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def materialize(case: Path, target: Path) -> Path:
    """The case's tree, laid out in `target` (created)."""
    first, *more = (case / "base").read_text().split()
    shutil.copytree(BASES / first, target)
    for name in more:
        shutil.copytree(BASES / name, target, dirs_exist_ok=True)
    patch = case / "edits.patch"
    if patch.exists():
        for relative, hunks in _files(patch.read_text()):
            path = target / relative
            path.write_text(_applied(path.read_text(), hunks, relative))
    for path in case.rglob("*"):
        if path.is_file() and path.relative_to(case).as_posix() not in _OWN:
            (target / path.relative_to(case)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / path.relative_to(case))
    return target


def reported(case: Path, target: Path, repository: bool = True) -> set[tuple[str, str, int]]:
    """The findings in the case's tree, laid out in `target` (`repository`: in a repository of its own)."""
    return findings(in_repository(case, target) if repository else materialize(case, target))


def held_out(expected: dict, pending: dict[str, str]) -> list:
    """A held-out round's cases for `parametrize`, those `pending` as strict xfails with their reason."""
    return [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=pending[case])) if case in pending else case
        for case in sorted(expected)
    ]


def assert_cases_are_the_folders(corpus: Path, expected: dict) -> None:
    """A held-out round of twelve forks, five or more of them clean, one folder each."""
    assert sorted(path.name for path in corpus.iterdir() if path.is_dir()) == sorted(expected)
    clean = [case for case, found in expected.items() if not found]
    assert len(expected) == 12
    assert len(clean) >= 5, clean


def assert_each_case_imitates_and_edits_its_base(corpus: Path, expected: dict) -> None:
    for case in expected:
        assert "Imitates" in (corpus / case / "README").read_text(), case
        assert (corpus / case / "edits.patch").read_text().startswith("--- a/"), case


def assert_case_findings(corpus: Path, expected: dict, case: str, target: Path) -> None:
    got = reported(corpus / case, target / case)
    want = expected[case]
    assert got == want, f"{case}: missed {sorted(want - got)}, false {sorted(got - want)}"


def in_repository(case: Path, target: Path) -> Path:
    """The case's tree laid out in `target`, a repository of its own (the fork is read from the launch's folder upward)."""
    root = materialize(case, target)
    (root / ".git").mkdir()
    return root


def findings(root: Path, checked: Path | None = None) -> set[tuple[str, str, int]]:
    """(code, path in the tree, line) of each finding under `root` (or of the file `checked` alone, with the
    launches it makes), as `replaylint check` reports it for vLLM 0.34.0."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(checked or root)])
    return {
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in json.loads(out.getvalue())
    }


def _files(patch: str) -> list[tuple[str, list[tuple[int, list[str]]]]]:
    """(path, [(the old lines before the hunk, its lines)]) for each file of the patch."""
    found: list[tuple[str, list[tuple[int, list[str]]]]] = []
    left = [0, 0]  # the old and new lines the current hunk has still to give
    for line in patch.splitlines(keepends=True):
        if left[0] > 0 or left[1] > 0 or (line.startswith("\\") and found and found[-1][1]):
            found[-1][1][-1][1].append(line)
            left[0] -= line[:1] in (" ", "-")
            left[1] -= line[:1] in (" ", "+")
        elif line.startswith("+++ "):
            found.append((line[4:].split("\t")[0].strip().split("/", 1)[1], []))
        elif (hunk := _HUNK.match(line)) is not None:
            left = [int(hunk.group(2) or 1), int(hunk.group(4) or 1)]
            found[-1][1].append((int(hunk.group(1)) - (left[0] > 0), []))  # (an addition alone: after that line)
    return found


def _applied(text: str, hunks: list[tuple[int, list[str]]], relative: str) -> str:
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    for start, body in hunks:
        begin = start
        out += lines[at:begin]
        at = begin
        kind = " "
        for line in body:
            if line.startswith("\\"):  # "\ No newline at end of file", of the line before
                if kind != "-":
                    out[-1] = out[-1].rstrip("\n")
                continue
            kind, content = line[0], line[1:]
            if kind in (" ", "-"):
                assert lines[at].rstrip("\n") == content.rstrip("\n"), f"{relative}:{at + 1}: the patch does not match the base"
                at += 1
            if kind in (" ", "+"):
                out.append(content)
    return "".join(out + lines[at:])
