from __future__ import annotations

import os
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker, FileResult
from replaylint.engine.config import Config
from replaylint.vllm.releases import parse_release

REPO = Path(__file__).resolve().parent.parent
# The cases under data/ are trees replaylint reads (a `smoke_test.py` imports vLLM): never test modules.
collect_ignore = ["data"]
SHARED = REPO.parent / "shared"


def check_files(tmp_path: Path, files: dict[str, str], release: str | None = None, **config: object) -> dict[str, FileResult]:
    """Write `files` under tmp_path and check each one; results keyed by relative name."""
    settings = Config(**config)  # type: ignore[arg-type]
    if release:
        settings.target_vllm = parse_release(release)
        settings.target_vllm_forced = True
    checker = Checker(settings)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        return {name: checker.check_file(name) for name in files}
    finally:
        os.chdir(cwd)


@pytest.fixture
def check(tmp_path: Path):
    def run(files: dict[str, str], release: str | None = None, **config: object) -> dict[str, FileResult]:
        return check_files(tmp_path, files, release, **config)

    return run


@pytest.fixture
def settled_at_once(monkeypatch) -> None:
    """Files written by a test are a moment old: let the result cache count their stats as
    settled (`cache._SETTLED_NS`: older than a file system's clock step)."""
    from replaylint.engine import cache

    monkeypatch.setattr(cache, "_SETTLED_NS", 0)


@pytest.fixture(scope="session")
def pre_commit_hook(tmp_path_factory) -> tuple[Path, str]:
    """The hook repository made from this checkout (tests/test_precommit.py) and its commit, with
    one PRE_COMMIT_HOME for the session: pre-commit builds the hook's environment (pip, from the
    package index: a minute) once for every project that installs the hook, as on a user's machine."""
    from tests.test_precommit import snapshot_of_this_checkout

    hook_repo = tmp_path_factory.mktemp("hook")
    revision = snapshot_of_this_checkout(hook_repo)
    os.environ["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    return hook_repo, revision


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """CI runs the slow end-to-end tests (builds and installs) in the judges' lane beside the suite
    (`.ci/run` sets REPLAYLINT_SLOW_TESTS=beside for the suite, `.ci/judges` runs `-m slow`): the
    suite is CI's longest lane, the judges' the shorter one."""
    if os.environ.get("REPLAYLINT_SLOW_TESTS") != "beside" or config.getoption("markexpr"):
        return
    beside = pytest.mark.skip(reason="run beside the suite by .ci/judges (REPLAYLINT_SLOW_TESTS=beside)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(beside)
