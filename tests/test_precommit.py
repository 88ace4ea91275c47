"""The real pre-commit installs the hook from this checkout, blocks a bad launch, passes the fix.

pre-commit builds the hook's environment with pip from the package index, as on users'
machines. The hook repository is a snapshot of this working tree committed in a temporary git
repository, so the test always runs the code under test (committed or not).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from replaylint.frontends import kind_for
from replaylint.workspace.discovery import read_head

REPO = Path(__file__).resolve().parent.parent
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

pytestmark = pytest.mark.skipif(not PRE_COMMIT.exists() or shutil.which("git") is None, reason="pre-commit and git are needed")

BAD = "from vllm import LLM\n\nllm = LLM('Qwen/Qwen3-8B', return_sampling_mask=True)\n"
# A prime-rl configuration: a per-source top_k truncates train sampling, so prime-rl turns the
# mask on, and the pass-through table asks for raw logprobs.
PRIME_RL = """\
max_steps = 50
seq_len = 4096

[model]
name = "Qwen/Qwen3-8B"

[orchestrator]
batch_size = 256

[orchestrator.train.sampling]
temperature = 1.0

[[orchestrator.train.source]]
name = "math"
env.taskset.id = "math-python"
sampling = { top_k = 64 }

[trainer.optim]
lr = 1e-6

[inference]

[inference.vllm]
tensor_parallel_size = 2
logprobs_mode = "raw_logprobs"
"""
# A script run as `bash scripts/serve-rollout`: a shebang, no suffix, no executable bit.
SCRIPT = """\
#!/usr/bin/env bash
set -euo pipefail
exec vllm serve Qwen/Qwen3-8B \\
  --tensor-parallel-size 2 \\
  --return-sampling-mask
"""


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
    if not (REPO / ".git").exists():  # an unpacked sdist
        pytest.skip("the hook repository is made from a git checkout of replaylint")
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
def project(tmp_path_factory, pre_commit_hook: tuple[Path, str]) -> Path:
    """A git project of its own with the hook installed (the hook's environment, which pip
    builds, is the session's: `pre_commit_hook` in conftest.py)."""
    hook_repo, revision = pre_commit_hook
    project = tmp_path_factory.mktemp("project")
    git(project, "init", "-q")
    (project / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: {hook_repo}\n  rev: {revision}\n  hooks:\n  - id: replaylint\n")
    installed = subprocess.run([str(PRE_COMMIT), "install"], cwd=project, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
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


@pytest.mark.parametrize(
    ("name", "text", "finding"),
    [
        ("configs/rl.toml", PRIME_RL, "configs/rl.toml:25:17: RPL003"),
        ("scripts/serve-rollout", SCRIPT, "scripts/serve-rollout:5:3: RPL003"),
    ],
)
def test_hook_blocks_toml_configs_and_scripts_known_by_their_shebang(project: Path, name: str, text: str, finding: str) -> None:
    path = project / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    path.chmod(0o644)
    git(project, "add", name, ".pre-commit-config.yaml")
    try:
        blocked = git(project, "commit", "-m", f"add {name}")
        output = blocked.stdout + blocked.stderr
        assert blocked.returncode != 0, output
        assert finding in output and "Failed" in output
    finally:
        git(project, "rm", "-q", "--cached", name)
        path.unlink()


def test_a_vllm_upgrade_alone_judges_the_unchanged_launches_again(project: Path) -> None:
    """`vllm==0.33.0` -> `0.34.0` in pyproject.toml is the only change: the unchanged script
    that sets VLLM_USE_V2_MODEL_RUNNER=0 no longer starts on 0.34.0, and the commit fails."""
    (project / "deploy").mkdir(exist_ok=True)
    (project / "deploy" / "serve.sh").write_text("#!/bin/bash\nVLLM_USE_V2_MODEL_RUNNER=0 exec vllm serve Qwen/Qwen3-8B --port 8000\n")
    (project / "pyproject.toml").write_text('[project]\nname = "rollout"\nversion = "1"\ndependencies = ["vllm==0.33.0"]\n')
    git(project, "add", "deploy/serve.sh", "pyproject.toml", ".pre-commit-config.yaml")
    first = git(project, "commit", "-m", "serve on vLLM 0.33")
    assert first.returncode == 0, first.stdout + first.stderr
    try:
        (project / "pyproject.toml").write_text('[project]\nname = "rollout"\nversion = "1"\ndependencies = ["vllm==0.34.0"]\n')
        git(project, "add", "pyproject.toml")
        bumped = git(project, "commit", "-m", "vLLM 0.34")
        output = bumped.stdout + bumped.stderr
        assert bumped.returncode != 0, output
        assert "deploy/serve.sh:2:1: RPL206" in output and "Model Runner V1 has been removed" in output
    finally:
        git(project, "reset", "-q", "--hard")
        git(project, "rm", "-q", "deploy/serve.sh", "pyproject.toml")
        git(project, "commit", "-q", "-m", "clean up")


def hook_takes(path: Path, hook: dict) -> bool:
    """pre-commit's choice of the files it hands a hook, by identify's tags (which pre-commit uses)."""
    from identify.identify import tags_from_path

    relative = path.as_posix()
    tags = tags_from_path(str(path))
    return (
        re.search(hook.get("files", ""), relative) is not None
        and re.search(hook.get("exclude", "^$"), relative) is None
        and set(hook.get("types", ["file"])) <= tags
        and (not hook.get("types_or") or bool(tags & set(hook["types_or"])))
        and not tags & set(hook.get("exclude_types", []))
    )


def test_hooks_are_handed_every_file_check_reads(tmp_path: Path) -> None:
    """Every golden case and example that `replaylint check .` reads, and the names that identify
    tags otherwise (a shebang script without the executable bit, `serve.dockerfile`)."""
    for name, text in {
        "serve-rollout": SCRIPT,
        "train": "#!/usr/bin/python3\nimport vllm\n",
        "serve.dockerfile": "FROM vllm/vllm-openai\n",
    }.items():
        (tmp_path / name).write_text(text)
        (tmp_path / name).chmod(0o644)
    candidates = [path for folder in (REPO / "fixtures", REPO / "examples", tmp_path) for path in folder.rglob("*") if path.is_file()]
    read = [path for path in candidates if kind_for(str(path), read_head(str(path))) is not None]
    assert len(read) > 300 and {tmp_path / "serve-rollout", tmp_path / "train", tmp_path / "serve.dockerfile"} <= set(read)
    for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text()):
        missed = [str(path) for path in read if not hook_takes(path, hook)]
        assert missed == [], f"{hook['id']} is not handed {missed[:10]}"


def test_manifest_is_valid() -> None:
    checked = subprocess.run([str(PRE_COMMIT), "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# A finding whose only fix is unsafe: the fix hook leaves it, `--unsafe-fixes` would rewrite the file.
ADAPTIVE = (
    'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
    '    speculative_config={"method": "mtp", "num_speculative_tokens": 1,\n'
    '                        "enable-adaptive-verification": True})\n'
)
OPTION_NAMES = ("--exit-zero", "--ignore=ALL", "--add-noqa", "--fix", "--unsafe-fixes")


def hooks_config(project: Path, hooks: str) -> str:
    """The project's .pre-commit-config.yaml with `hooks` (YAML) from the same hook repository."""
    config = project / ".pre-commit-config.yaml"
    before = config.read_text()
    config.write_text(before[: before.index("  hooks:\n")] + "  hooks:\n" + hooks)
    return before


@pytest.mark.parametrize(
    ("hooks", "passes"),
    [
        ("  - id: replaylint\n  - id: replaylint-fix\n", False),
        ("  - id: replaylint\n    args: [--ignore, RPL002]\n  - id: replaylint-fix\n    args: [--extend-ignore=RPL002]\n", True),
    ],
)
def test_staged_files_named_like_options_are_checked_not_obeyed(project: Path, hooks: str, passes: bool) -> None:
    """pre-commit runs `entry + args + files`: files named `--exit-zero`, `--ignore=ALL`,
    `--add-noqa`, `--fix` and `--unsafe-fixes` next to a launch with a finding neither switch
    the hooks off nor make them write; the user's `args:` still count."""
    files = {"rollout.py": ADAPTIVE, **dict.fromkeys(OPTION_NAMES, "x\n")}
    for name, text in files.items():
        (project / name).write_text(text)
    before = hooks_config(project, hooks)
    git(project, "add", "--", *files, ".pre-commit-config.yaml")
    try:
        committed = git(project, "commit", "-m", "options as file names")
        output = committed.stdout + committed.stderr
        assert (committed.returncode == 0) == passes, output
        if not passes:
            assert output.count("rollout.py:3:5: RPL002") == 2 and "Failed" in output
        assert {name: (project / name).read_text() for name in files} == files
    finally:
        if git(project, "rev-parse", "-q", "--verify", "HEAD").stdout and passes:
            git(project, "reset", "-q", "--hard", "HEAD~1")
        git(project, "rm", "-q", "--cached", "--ignore-unmatch", "--", *files)
        for name in files:
            (project / name).unlink(missing_ok=True)
        (project / ".pre-commit-config.yaml").write_text(before)
