"""The real-world corpus (fixtures/realworld/), without the vLLM judge: the manifest matches the
files, and replaylint scans every file as it is with no crash and exactly the manifest's
expected findings. `python scripts/realworld.py` adds the mutants and the judges."""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.realworld import harness

ENTRIES = harness.load_manifest()
SUPPORT = harness.load_support()


def test_manifest_lists_every_file_once():
    on_disk = {str(p.relative_to(harness.CORPUS)) for p in harness.CORPUS.rglob("*") if p.is_file()} - {"manifest.json"}
    listed = [entry.path for entry in ENTRIES + SUPPORT]
    assert len(listed) == len(set(listed))
    assert on_disk == set(listed)


def test_corpus_is_large_and_varied_enough():
    assert len(ENTRIES) >= 300
    assert len({entry.project for entry in ENTRIES}) >= 12


@pytest.mark.parametrize("entry", ENTRIES + SUPPORT, ids=lambda e: e.path)
def test_file_is_unchanged_and_its_licence_allowed(entry):
    assert hashlib.sha256(entry.file.read_bytes()).hexdigest() == entry.sha256
    assert entry.licence in harness.ALLOWED_LICENCES
    assert entry.raw["archive_sha256"] and entry.raw["original_path"].endswith(entry.path.split("/", 1)[1])


def test_unmutated_corpus_scans_as_the_manifest_says():
    problems = []
    for entry in ENTRIES:
        scan = harness.scan_as_is(entry)
        if scan.internal_error:
            problems.append(f"{entry.path}: crash: {scan.internal_error}")
        got = sorted((f["code"], f["line"]) for f in scan.findings)
        want = sorted((f["code"], f["line"]) for f in entry.expected_findings)
        if got != want:
            problems.append(f"{entry.path}: {got} != expected {want}")
        if any(f["code"] == "RPL900" for f in scan.findings) and harness.valid_in_own_language(entry) is not False:
            problems.append(f"{entry.path}: RPL900 on a file its own tool accepts")
    assert problems == []


def test_known_bugs_are_documented():
    bugs = json.loads(harness.KNOWN_BUGS.read_text())["bugs"]
    text = (harness.REPO / "tests" / "realworld_bugs.md").read_text()
    for bug in bugs:
        assert f"## {bug['id']}" in text
