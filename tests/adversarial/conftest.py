"""The adversarial suite: a checked tree may be hostile (README "Security").

Each case runs replaylint as a user or CI job would, on a tree an attacker or an unlucky user
made, and asserts what replaylint promises: nothing from the tree runs, nothing outside it is
written, nothing hangs, every problem is a message or a finding. Every test here has a time
limit (pytest-timeout): a case that hangs fails instead of stopping the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TIME_LIMIT = 60  # seconds: each case ends within a few; a hang fails here


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TIME_LIMIT))


def replaylint(*args: str, cwd: Path, stdin: bytes | None = None, timeout: float = 30, env: dict | None = None, user: int | None = None):
    """`python -m replaylint ARGS` in `cwd` as a separate process (a hang is a failure, not a
    stuck suite); `user` runs it under that uid (root only)."""
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "replaylint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=environment,
        user=user,
    )


NOBODY = 65534


def as_user(uid: int, work) -> int:
    """`work()` in a forked child that has become `uid` (the test runs as root), its return
    value as the exit status. replaylint is warmed first in this process: the child may not be
    allowed to read the interpreter's own files (a Python under /root)."""
    _warm_up()
    pid = os.fork()
    if pid == 0:
        status = 99
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            status = work()
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _warm_up() -> None:
    """Import every module a check, a fix and a report may load lazily."""
    import importlib
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from replaylint import frontends

    for kind in ("python", "shell", "yaml", "dockerfile", "toml"):
        frontends.load(kind)
    for module in (
        "replaylint.run.apply_fixes",
        "replaylint.rules",
        "replaylint.engine.suppress",
        "replaylint.report",
        "replaylint.engine.project",
        "difflib",
    ):
        importlib.import_module(module)
    import tempfile

    from replaylint.cli import main as cli

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "w.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            cli.main(["check", "--no-cache", "--fix", folder])


@pytest.fixture
def public_tmp():
    """A folder every user may enter (pytest's own temporary folders are the owner's alone)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="replaylint-adversarial-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="switching users needs root")
