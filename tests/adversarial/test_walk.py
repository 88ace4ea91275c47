"""What a walk of a hostile tree reaches: `--watch` stays inside the tree and does not judge it by
the folders above it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

LAUNCH = "vllm serve m --return-sampling-mask\n"
FIXED = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"


class Watcher:
    """`replaylint check --watch .` running in `project`, its stderr in a file."""

    def __init__(self, project: Path, log: Path) -> None:
        self.log = log
        self._stderr = open(log, "w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "replaylint", "check", "--no-cache", "--watch", "--output-format", "concise", "."],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
        )

    def wait_for(self, text: str, count: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.log.read_text().count(text) < count:
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.1)

    def stop(self) -> str:
        self.process.terminate()
        out, _ = self.process.communicate(timeout=10)
        self._stderr.close()
        return out


@pytest.mark.parametrize("above", ["build", ".hidden", "node_modules"])
def test_watch_checks_again_in_a_project_below_an_excluded_or_hidden_folder(tmp_path: Path, above: str) -> None:
    pytest.importorskip("watchfiles")
    project = tmp_path / above / "project"
    project.mkdir(parents=True)
    (project / "serve.sh").write_text(LAUNCH)
    watcher = Watcher(project, tmp_path / "stderr.txt")
    try:
        watcher.wait_for("Watching for file changes.", 1)
        (project / "serve.sh").write_text(FIXED)
        watcher.wait_for("Watching for file changes.", 2)
    finally:
        out = watcher.stop()
    assert "File change detected: serve.sh" in watcher.log.read_text()
    assert "Found 1 error." in out and out.endswith("All checks passed!\n"), out


def test_watch_does_not_follow_links_out_of_the_tree(tmp_path: Path) -> None:
    pytest.importorskip("watchfiles")
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "serve.sh").write_text(LAUNCH)
    (outside / "far.sh").write_text(LAUNCH)
    (project / "up").symlink_to("..")
    (project / "away").symlink_to(outside)
    (project / "root").symlink_to("/")
    watcher = Watcher(project, tmp_path / "stderr.txt")
    try:
        watcher.wait_for("Watching for file changes.", 1)
        (outside / "far.sh").write_text(FIXED)
        time.sleep(2.5)  # past the debounce a change through a followed link would be reported in
        (project / "serve.sh").write_text(FIXED)
        watcher.wait_for("Watching for file changes.", 2)
    finally:
        watcher.stop()
    changes = [line for line in watcher.log.read_text().splitlines() if "File change detected" in line]
    assert len(changes) == 1 and changes[0].endswith("File change detected: serve.sh"), watcher.log.read_text()
