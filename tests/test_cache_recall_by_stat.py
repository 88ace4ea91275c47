"""A warm run recalls the result of a file that passed the prefilter by its stat, and the files
that result read by theirs, without reading them: any change to the file, to what it read, to
its pin or to the configuration makes it checked again."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.engine import cache, checker

LAUNCH = "from vllm import LLM\nLLM('m', return_sampling_mask=True)\n"  # RPL003
QUIET = "from vllm import LLM\nLLM('m', return_anything_mask=True)\n"  # the same size, no finding


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The files a run reads to check them (their bytes, not their stat)."""
    read: list[str] = []
    original = checker.Checker.read

    def recording(self, path):
        read.append(os.path.basename(path))
        return original(self, path)

    monkeypatch.setattr(checker.Checker, "read", recording)
    return read


def codes(folder: Path, *args: str) -> list[str]:
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "json", "--cache-dir", str(folder.parent / "cache"), *args, "."])
    finally:
        os.chdir(cwd)
    return sorted(finding["code"] for finding in json.loads(out.getvalue()))


def _same_times(path: Path, text: str) -> None:
    """Write `text` and put the modification time back: only the change time tells."""
    before = path.stat()
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _project(tmp_path: Path) -> Path:
    """A project with a file the prefilter turns away (a warm run is one that remembers such files)."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "plain.py").write_text("import os\n")
    return project


def test_an_unchanged_file_is_recalled_by_its_stat_without_being_read(tmp_path: Path, settled_at_once, reads) -> None:
    project = _project(tmp_path)
    (project / "a.py").write_text(LAUNCH)
    assert codes(project) == ["RPL003"]  # cold
    assert codes(project) == ["RPL003"]  # warm: found by content, its stat kept
    reads.clear()
    assert codes(project) == ["RPL003"]
    assert reads == []


def test_a_file_rewritten_in_place_with_its_size_and_time_is_checked_again(tmp_path: Path, settled_at_once, reads) -> None:
    project = _project(tmp_path)
    path = project / "a.py"
    path.write_text(LAUNCH)
    codes(project), codes(project)
    _same_times(path, QUIET)
    assert codes(project) == []
    assert "a.py" in reads


def test_a_file_replaced_by_a_rename_with_its_size_and_time_is_checked_again(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    path = project / "a.py"
    path.write_text(QUIET)
    codes(project), codes(project)
    before = path.stat()
    replacement = tmp_path / "replacement.py"
    replacement.write_text(LAUNCH)
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, path)
    assert codes(project) == ["RPL003"]


def test_a_touched_file_is_read_again_and_recalled_by_content(tmp_path: Path, settled_at_once, reads) -> None:
    project = _project(tmp_path)
    path = project / "a.py"
    path.write_text(LAUNCH)
    codes(project), codes(project)
    reads.clear()
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert codes(project) == ["RPL003"]
    assert reads == ["a.py"]
    reads.clear()
    assert codes(project) == ["RPL003"]  # its new stat kept
    assert reads == []


def test_a_file_the_result_read_changed_in_place_makes_it_checked_again(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    (project / "serve.sh").write_text("vllm serve m --config replay.yaml --enable-scale-out\n")
    replay = project / "replay.yaml"
    replay.write_text("return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n")
    assert codes(project) == []
    assert codes(project) == []
    assert codes(project) == []  # recalled, its --config by its stat
    _same_times(replay, "return-sampling-mask: true\n#ogprobs-mode: processed_logprobs\n")
    assert codes(project) == ["RPL003"]


def test_a_changed_pin_or_configuration_is_not_recalled_past(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    (project / ".git").mkdir()
    (project / "serve.sh").write_text(
        "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
    )
    requirements = project / "requirements.txt"
    requirements.write_text("vllm==0.33.0\n")
    for _ in range(3):
        assert codes(project) == ["RPL004"]
    _same_times(requirements, "vllm==0.34.0\n")
    assert codes(project) == ["RPL206"]
    assert codes(project, "--ignore", "RPL206") == []
    (project / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["RPL206"]\n')
    for _ in range(2):
        assert codes(project) == []


def test_a_stat_taken_in_the_clock_step_of_a_write_is_not_kept(tmp_path: Path) -> None:
    """A write in the same clock step as the read leaves the file's times as they were: a stat
    that recent is not trusted to tell the file unchanged, the next run reads it again."""
    path = tmp_path / "a.py"
    path.write_text(LAUNCH)
    status = path.stat()
    stat = (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
    key = cache.digest(LAUNCH.encode()) + "|pin"
    results = cache.ResultCache(str(tmp_path / "cache"), "fingerprint")
    results.store(str(path), key, [], [], "python", [])
    assert results.lookup(str(path), key, stat) is not None
    assert results.recall(str(path), stat, "|pin") is None
    results._started = max(status.st_mtime_ns, status.st_ctime_ns) + cache._SETTLED_NS  # a run that starts later
    assert results.lookup(str(path), key, stat) is not None
    assert results.recall(str(path), stat, "|pin") is not None
    assert results.recall(str(path), stat, "|another pin") is None


def test_a_file_turned_away_in_the_clock_step_of_a_write_is_not_remembered(tmp_path: Path) -> None:
    """The files the prefilter turned away have the same guard: a stat that recent is not kept
    (a rewrite in the same clock step would pass as the file turned away), and what was kept of
    the file before is forgotten; a run that starts later keeps it."""
    path = tmp_path / "plain.py"
    path.write_text("import os\n")
    status = path.stat()
    stat = (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
    results = cache.ResultCache(str(tmp_path / "cache"), "fingerprint")
    results.mark_clean(str(path), stat)
    assert not results.is_clean(str(path), stat)
    results._started = max(status.st_mtime_ns, status.st_ctime_ns) + cache._SETTLED_NS  # a run that starts later
    results.mark_clean(str(path), stat)
    assert results.is_clean(str(path), stat)
    results._started = max(status.st_mtime_ns, status.st_ctime_ns)  # read again in the clock step of a write
    results.mark_clean(str(path), stat)
    assert not results.is_clean(str(path), stat)
