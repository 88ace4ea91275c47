"""The GitHub Action (action.yml) and the GitLab CI template (ci/gitlab/): valid for the
schemas GitHub and GitLab publish (check-jsonschema's vendored copies), the README's workflow
passes actionlint with this action, and the action's steps run as a runner would run them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import replaylint
from replaylint.report import FORMATS

REPO = Path(__file__).resolve().parent.parent
ACTION = REPO / "action.yml"
GITLAB = REPO / "ci" / "gitlab" / "replaylint.gitlab-ci.yml"
BIN = Path(sys.executable).parent
CHECK_JSONSCHEMA = BIN / "check-jsonschema"
ACTIONLINT = BIN / "actionlint"
BAD_LAUNCH = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out\n"

needs_check_jsonschema = pytest.mark.skipif(not CHECK_JSONSCHEMA.exists(), reason="check-jsonschema (test extra) is not installed")


def validate(schema: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", schema, str(path)], capture_output=True, text=True)


@needs_check_jsonschema
@pytest.mark.parametrize(
    ("template", "schema", "breakage"),
    [
        (ACTION, "vendor.github-actions", ("    - name: Check\n      shell: bash\n", "    - name: Check\n")),
        (GITLAB, "vendor.gitlab-ci", ("      when: never\n", "      when: sometimes\n")),
    ],
)
def test_templates_are_valid_for_the_published_schemas(template: Path, schema: str, breakage: tuple[str, str], tmp_path: Path) -> None:
    checked = validate(schema, template)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    broken = tmp_path / template.name  # the schema does catch a step without its shell, a wrong `when`
    assert breakage[0] in template.read_text()
    broken.write_text(template.read_text().replace(*breakage))
    assert validate(schema, broken).returncode == 1


def readme_workflow() -> str:
    blocks = re.findall(r"```yaml\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    (workflow,) = [block for block in blocks if "uses: replaylint/replaylint@" in block]
    return workflow


@pytest.mark.skipif(not ACTIONLINT.exists() or shutil.which("git") is None, reason="actionlint (test extra) and git are needed")
def test_the_readme_workflow_passes_actionlint_with_this_action(tmp_path: Path) -> None:
    """actionlint reads a local action's metadata: the inputs the workflow gives must be the
    action's. The README's workflow uses the action from this repository (`./`)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(ACTION, tmp_path / "action.yml")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    workflow = re.sub(r"uses: replaylint/replaylint@\S+", "uses: ./", readme_workflow())
    (workflows / "replaylint.yml").write_text(workflow)
    linted = subprocess.run([str(ACTIONLINT), "-no-color"], cwd=tmp_path, capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    if CHECK_JSONSCHEMA.exists():
        checked = validate("vendor.github-workflows", workflows / "replaylint.yml")
        assert checked.returncode == 0, checked.stdout

    (workflows / "replaylint.yml").write_text(workflow.replace("sarif: true", "upload-sarif: true"))
    linted = subprocess.run([str(ACTIONLINT), "-no-color"], cwd=tmp_path, capture_output=True, text=True)
    assert linted.returncode == 1 and 'input "upload-sarif" is not defined in action "replaylint"' in linted.stdout


def test_the_gitlab_job_reports_code_quality_and_fails_on_findings() -> None:
    template = yaml.safe_load(GITLAB.read_text())
    (job,) = template.values()
    *install, report, check = job["script"]
    assert "pip install" in install[0] and "replaylint${REPLAYLINT_VERSION:+==$REPLAYLINT_VERSION}" in install[0]
    assert "--output-format gitlab" in report and "--exit-zero" in report
    assert f"--output-file {job['artifacts']['reports']['codequality']}" in report
    assert job["artifacts"]["when"] == "always"  # the report is kept when the last command fails the job
    assert check.startswith("replaylint check") and "--exit-zero" not in check
    assert set(job["variables"]) == {"REPLAYLINT_VERSION", "REPLAYLINT_PATHS", "REPLAYLINT_ARGS"}
    assert all(f"${name}" in report and f"${name}" in check for name in ("REPLAYLINT_ARGS", "REPLAYLINT_PATHS"))


# Running the action's steps: each `run:` as GitHub runs a bash step, with the runner's files
# (GITHUB_PATH, GITHUB_OUTPUT) and the step's `env:`; `uses:` steps are recorded, not run.
_INPUT = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")
_CONDITION = re.compile(r"inputs\.([\w-]+) == '([^']*)'")


def _expand(value: object, inputs: dict[str, str]) -> str:
    return _INPUT.sub(lambda match: inputs[match.group(1)], str(value))


def _runs(condition: str | None, inputs: dict[str, str]) -> bool:
    if condition is None:
        return True
    match = _CONDITION.fullmatch(condition)
    assert match, f"the step runner here reads only `inputs.NAME == 'value'` conditions, not {condition!r}"
    return inputs[match.group(1)] == match.group(2)


def ci_job_environment(*path_first: str, **variables: str) -> dict[str, str]:
    """A CI job's environment: this machine's, less what ties it to this test run (the virtual
    environment, PYTHONPATH, and this test environment's replaylint on PATH: the job installs its
    own), with `path_first` before the rest of PATH."""
    environment = {name: value for name, value in os.environ.items() if name not in ("VIRTUAL_ENV", "PYTHONPATH")}
    path = [entry for entry in os.environ["PATH"].split(os.pathsep) if Path(entry) != BIN]
    return environment | {"PATH": os.pathsep.join([*path_first, *path])} | variables


def run_action(given: dict[str, str], workspace: Path, runner: Path) -> tuple[list[dict], dict[str, str]]:
    """The steps that ran (name, exit code, output, or the action used and its `with:`) and the
    action's outputs."""
    action = yaml.safe_load(ACTION.read_text())
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()} | given
    files = {name: runner / name for name in ("path", "output")}
    for file in files.values():
        file.write_text("")
    steps, outputs = [], {}
    for step in action["runs"]["steps"]:
        if not _runs(step.get("if"), inputs):
            continue
        if "uses" in step:
            steps.append({"name": step["name"], "uses": step["uses"], "with": {k: _expand(v, inputs) for k, v in step["with"].items()}})
            continue
        added = [line for line in files["path"].read_text().splitlines() if line]
        environment = ci_job_environment(
            *reversed(added),
            RUNNER_OS="Linux",
            RUNNER_TEMP=str(runner),
            GITHUB_PATH=str(files["path"]),
            GITHUB_OUTPUT=str(files["output"]),
            **{name: _expand(value, inputs) for name, value in step.get("env", {}).items()},
        )
        script = runner / "step.sh"
        script.write_text(step["run"])
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=environment,
            capture_output=True,
            text=True,
        )
        steps.append({"name": step["name"], "returncode": done.returncode, "output": done.stdout + done.stderr})
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in files["output"].read_text().splitlines() if "=" in line)
        if done.returncode != 0:
            break
    values = {
        name: re.sub(r"\$\{\{\s*steps\.(\w+)\.outputs\.(\w+)\s*\}\}", lambda m: outputs.get(m[1], {}).get(m[2], ""), spec["value"])
        for name, spec in action["outputs"].items()
    }
    return steps, values


@pytest.fixture(scope="module")
def package_index(tmp_path_factory) -> Path:
    """A folder pip finds this checkout in (PIP_FIND_LINKS): the sdist and the wheel built from it,
    so that `pip install replaylint==VERSION` finds them as on PyPI; dependencies still come from
    the package index."""
    pytest.importorskip("build")
    folder = tmp_path_factory.mktemp("links")
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(folder), str(REPO)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    return folder


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Path:
    """RUNNER_TEMP, kept between the tests as a self-hosted runner keeps it (the second install
    finds replaylint there)."""
    return tmp_path_factory.mktemp("runner")


@pytest.mark.slow
def test_the_action_installs_replaylint_annotates_and_fails_on_findings(
    package_index: Path, runner: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("PIP_FIND_LINKS", str(package_index))
    workspace = tmp_path / "workspace"
    for folder in (workspace / "deploy", workspace / "docs"):
        folder.mkdir(parents=True)
    (workspace / ".git").mkdir()
    (workspace / "deploy" / "serve.sh").write_text(BAD_LAUNCH)
    (workspace / "docs" / "serve.sh").write_text(BAD_LAUNCH)  # not among the paths given
    steps, outputs = run_action(
        {"version": replaylint.__version__, "paths": "deploy", "args": "--target-vllm 0.33", "sarif": "true"}, workspace, runner
    )
    assert [step["name"] for step in steps] == [
        "Install replaylint",
        "Write the SARIF report",
        "Upload the SARIF report to code scanning",
        "Check",
    ]
    install, sarif, upload, check = steps
    assert install["returncode"] == 0, install["output"]
    assert sarif["returncode"] == 0, sarif["output"]
    assert outputs == {"sarif-file": "replaylint.sarif"}
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"] == {"sarif_file": "replaylint.sarif", "category": "replaylint"}
    report = (workspace / "replaylint.sarif").read_text()
    assert '"ruleId": "RPL003"' in report and "deploy/serve.sh" in report and "docs/serve.sh" not in report
    assert check["returncode"] == 1
    assert check["output"].startswith("::error file=deploy/serve.sh,line=2,")
    assert "vLLM 0.33.0 says" in check["output"] and "docs/serve.sh" not in check["output"]


@pytest.mark.slow
def test_the_action_passes_a_clean_tree_without_sarif(package_index: Path, runner: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PIP_FIND_LINKS", str(package_index))
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "serve.sh").write_text(
        BAD_LAUNCH.replace("--return-sampling-mask", "--return-sampling-mask --logprobs-mode processed_logprobs")
    )
    steps, outputs = run_action({"version": replaylint.__version__}, workspace, runner)
    assert [(step["name"], step["returncode"]) for step in steps] == [("Install replaylint", 0), ("Check", 0)], steps
    assert outputs == {"sarif-file": ""} and not (workspace / "replaylint.sarif").exists()


@pytest.mark.slow
@pytest.mark.skipif("gitlab" not in FORMATS, reason="--output-format gitlab is not in this checkout")
def test_the_gitlab_job_script_writes_the_report_and_fails_on_findings(package_index: Path, tmp_path: Path) -> None:
    """The job's script run by `sh -e` as GitLab's runner runs it, with the job's variables, in a
    fresh Python environment standing for the `python:3.12-slim` image."""
    job = yaml.safe_load(GITLAB.read_text())["replaylint"]
    image = tmp_path / "image"
    subprocess.run([sys.executable, "-m", "venv", str(image)], check=True)
    project = tmp_path / "project"
    (project / "deploy").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / "deploy" / "serve.sh").write_text(BAD_LAUNCH)
    variables = job["variables"] | {"REPLAYLINT_VERSION": replaylint.__version__}
    environment = ci_job_environment(str(image / "bin"), **variables, PIP_FIND_LINKS=str(package_index))
    done = subprocess.run(["sh", "-e", "-c", "\n".join(job["script"])], cwd=project, env=environment, capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "deploy/serve.sh:2:26: RPL003" in done.stdout
    (issue,) = json.loads((project / job["artifacts"]["reports"]["codequality"]).read_text())
    location = issue["location"]  # GitLab reads `lines.begin` or `positions.begin.line`
    assert location["path"] == "deploy/serve.sh"
    assert (location["lines"]["begin"] if "lines" in location else location["positions"]["begin"]["line"]) == 2
    assert "RPL003" in issue["check_name"] and issue["fingerprint"] and issue["description"]
