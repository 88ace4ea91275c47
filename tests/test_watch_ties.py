"""`replaylint check --watch` runs a whole check after each change, so an edit of the file that
starts a replay server re-judges the clients other files hold (`run.cross_file`), through the
result cache as a user runs it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --port 8001{flags}\n"
ROLLOUT = (
    "from openai import OpenAI\n\n"
    'client = OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")\n\n\n'
    "def rollout(prompt):\n"
    '    return client.completions.create(model="m", prompt=prompt, presence_penalty=0.5)\n'
)


def test_watch_rejudges_a_client_when_the_server_s_file_changes(tmp_path: Path, tmp_path_factory) -> None:
    pytest.importorskip("watchfiles")
    (tmp_path / ".git").mkdir()
    script = tmp_path / "serve.sh"
    script.write_text(SERVE.format(flags="").replace(" --return-sampling-mask", ""))
    (tmp_path / "rollout.py").write_text(ROLLOUT)
    log = tmp_path_factory.mktemp("watch") / "stderr.txt"
    with open(log, "w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "replaylint", "check", "--watch", "--output-format", "concise", "."],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        try:
            _wait_for(log, "Watching for file changes.", 1)
            script.write_text(SERVE.format(flags=""))
            _wait_for(log, "Watching for file changes.", 2)
            script.write_text(SERVE.format(flags="").replace("8001", "8002"))
            _wait_for(log, "Watching for file changes.", 3)
        finally:
            process.terminate()
            out, _ = process.communicate(timeout=10)
    assert out.startswith("All checks passed!\n"), out  # no replay server: the client is tied to nothing
    tied, moved = _reports(out.split("\n", 1)[1])
    assert [line for line in tied if line.startswith("rollout.py")] == ["rollout.py:7:12: RPL301", "rollout.py:7:64: RPL302"], out
    assert [line for line in moved if line.startswith("rollout.py")] == [], out  # the server moved to port 8002


def _reports(out: str) -> list[list[str]]:
    """The places and codes of each report after the first."""
    return [[" ".join(line.split()[:2]) for line in report.splitlines() if ": RPL" in line] for report in out.split("Found ")[:-1]]


def _wait_for(log: Path, text: str, count: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while log.read_text().count(text) < count:
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
