"""The real pre-commit installs the hook from this checkout, blocks a bad launch, passes the fix.

pre-commit builds the hook's environment with pip from the package index, as on users'
machines. The hook repository is a snapshot of this working tree committed in a temporary git
repository, so the test always runs the code under test (committed or not).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

pytestmark = pytest.mark.skipif(not PRE_COMMIT.exists() or shutil.which("git") is None, reason="pre-commit and git are needed")

BAD = "from vllm import LLM\n\nllm = LLM('Qwen/Qwen3-8B', return_sampling_mask=True)\n"


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)


def snapshot_of_this_checkout(target: Path) -> str:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file() and not name.startswith("tests/"):
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    git(target, "init", "-q")
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "snapshot")
    return git(target, "rev-parse", "HEAD").stdout.strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    hook_repo = tmp_path_factory.mktemp("hook")
    revision = snapshot_of_this_checkout(hook_repo)
    project = tmp_path_factory.mktemp("project")
    git(project, "init", "-q")
    (project / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: {hook_repo}\n  rev: {revision}\n  hooks:\n  - id: replaylint\n")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home"))}
    installed = subprocess.run([str(PRE_COMMIT), "install"], cwd=project, env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    os.environ["PRE_COMMIT_HOME"] = env["PRE_COMMIT_HOME"]
    return project


def test_hook_blocks_a_bad_launch_and_passes_the_fixed_one(project: Path) -> None:
    (project / "rollout.py").write_text(BAD)
    git(project, "add", "rollout.py", ".pre-commit-config.yaml")
    blocked = git(project, "commit", "-m", "bad launch")
    output = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0, output
    assert "rollout.py:3:28: RPL003" in output and "Failed" in output
    assert "sampling distribution replay requires logprobs_mode='processed_logprobs'" in output

    (project / "rollout.py").write_text(
        BAD.replace("return_sampling_mask=True", "return_sampling_mask=True, logprobs_mode='processed_logprobs'")
    )
    git(project, "add", "rollout.py")
    passed = git(project, "commit", "-m", "fixed launch")
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert "replaylint" in output and "Passed" in output


def test_manifest_is_valid() -> None:
    checked = subprocess.run([str(PRE_COMMIT), "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
