"""The CI templates on a hostile pull request (issue 26): a checkout holding top-level packages
named like what the job runs with `python -m` (`venv`, `pip`, `ensurepip`, ...) and committed
links at the reports' names. The Action's steps and the GitLab job's script run for real
(tests/test_ci_templates.py's runners), replaylint installed from this checkout's copy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_ci_templates import (
    BAD_LAUNCH,
    GITLAB_JOB,
    action_checkout,  # noqa: F401 (fixtures)
    image,  # noqa: F401
    run_action,
    run_gitlab_job,
)

# Each would run on `import NAME` with the checkout on sys.path: `python -m venv`, `-m pip`,
# venv's own `-m ensurepip`, pip's build backend, `-m replaylint.cli.ci_job` and the shlex it uses.
PACKAGES = ("venv", "pip", "ensurepip", "setuptools", "replaylint")
MODULES = ("shlex",)
REPORTS = ("replaylint.sarif", "gl-code-quality-report.json")
VICTIM = "what the job may write, untouched\n"


def hostile_checkout(folder: Path) -> tuple[Path, Path]:
    """A checkout in `folder/checkout` whose modules leave a mark in `folder/marks` when
    imported, whose report names link to files beside it, and a launch replaylint must report."""
    checkout, marks = folder / "checkout", folder / "marks"
    (checkout / ".git").mkdir(parents=True)
    marks.mkdir()
    for name in (*PACKAGES, *MODULES):
        code = f"open({str(marks / name)!r}, 'w').write('ran')\n"
        if name in MODULES:
            (checkout / f"{name}.py").write_text(code)
            continue
        (checkout / name).mkdir()
        for module in ("__init__.py", "__main__.py"):
            (checkout / name / module).write_text(code)
    for report in REPORTS:
        (folder / f"victim-{report}").write_text(VICTIM)
        (checkout / report).symlink_to(f"../victim-{report}")
    (checkout / "deploy").mkdir()
    (checkout / "deploy" / "serve.sh").write_text(BAD_LAUNCH)
    (checkout / "--exit-zero").write_text("")  # a file named like an option turns nothing off
    return checkout, marks


def assert_untouched(folder: Path, marks: Path) -> None:
    assert sorted(path.name for path in marks.iterdir()) == []  # nothing from the checkout ran
    for report in REPORTS:
        assert (folder / f"victim-{report}").read_text() == VICTIM


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_action_runs_nothing_from_the_checkout_and_writes_nothing_through_it(action_checkout: Path, tmp_path: Path) -> None:  # noqa: F811
    checkout, marks = hostile_checkout(tmp_path)
    runner = tmp_path / "runner"
    runner.mkdir()
    run = run_action({"sarif": "true"}, checkout, runner, action_checkout)
    assert [(step["name"], step.get("returncode")) for step in run.steps] == [
        ("Install replaylint", 0),
        ("Write the SARIF report", 0),
        ("Upload the SARIF report to code scanning", None),
        ("Check", 1),
    ], run.steps
    assert_untouched(tmp_path, marks)
    assert (checkout / "replaylint.sarif").is_symlink()  # left as committed
    report = Path(run.outputs["sarif-file"])
    assert report.is_relative_to(runner) and '"ruleId": "RPL003"' in report.read_text()
    assert run.steps[-1]["output"].startswith("::error file=deploy/serve.sh,line=2,")
    assert run.path_added == "" and run.env_added == ""  # later steps get the PATH they had


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_gitlab_job_runs_nothing_from_the_checkout_and_writes_nothing_through_it(
    action_checkout: Path,  # noqa: F811
    image: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    checkout, marks = hostile_checkout(tmp_path)
    done = run_gitlab_job(checkout, image, REPLAYLINT_SOURCE=str(action_checkout))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "deploy/serve.sh:2:26: RPL003" in done.stdout
    assert_untouched(tmp_path, marks)
    report = checkout / GITLAB_JOB["artifacts"]["reports"]["codequality"]
    assert not report.is_symlink()  # the committed link replaced by the report, where GitLab collects it
    (issue,) = json.loads(report.read_text())
    assert issue["location"]["path"] == "deploy/serve.sh"


def test_the_hostile_checkout_would_run_under_plain_python_m(tmp_path: Path) -> None:
    """The attack is real: `python -m venv` from the checkout runs its `venv` package."""
    checkout, marks = hostile_checkout(tmp_path)
    subprocess.run([sys.executable, "-m", "venv", "--help"], cwd=checkout, capture_output=True)
    assert (marks / "venv").exists()
