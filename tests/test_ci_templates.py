"""The GitHub Action (action.yml) and the GitLab CI template (ci/gitlab/): valid for the
schemas GitHub and GitLab publish (check-jsonschema's vendored copies), the README's workflow
passes actionlint with this action, and the action's steps run as a runner would run them."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

import replaylint
from replaylint.cli import ci_job
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


def test_what_the_templates_use_is_pinned_by_commit_or_digest() -> None:
    """A tag can be moved to other code; a commit or a digest cannot."""
    action = yaml.safe_load(ACTION.read_text())
    used = [step["uses"] for step in action["runs"]["steps"] if "uses" in step]
    assert used and all(re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", uses) for uses in used), used
    assert re.search(r"upload-sarif@[0-9a-f]{40} # v4\.\d+\.\d+\n", ACTION.read_text())  # the release, for people and Dependabot
    (job,) = yaml.safe_load(GITLAB.read_text()).values()
    assert re.fullmatch(r"python:3\.12-slim@sha256:[0-9a-f]{64}", job["image"])


def test_the_gitlab_template_installs_its_own_release_not_a_name_from_an_index() -> None:
    """The template installs replaylint from its repository at the tag of the release it belongs
    to, which is the tag README's `include:` names."""
    (job,) = yaml.safe_load(GITLAB.read_text()).values()
    assert job["variables"]["REPLAYLINT_REF"] == f"v{replaylint.__version__}"
    (install,) = [line for line in job["script"] if "pip install" in line]
    assert "https://github.com/replaylint/replaylint/archive/$REPLAYLINT_REF.tar.gz" in install
    include = re.search(r"remote: https://github.com/replaylint/replaylint/raw/(\S+)/ci/gitlab/", (REPO / "README.md").read_text())
    assert include and include[1] == job["variables"]["REPLAYLINT_REF"]


@pytest.mark.parametrize(
    ("options", "paths", "argv"),
    [
        ("", "", ["check", "--fixed", "--"]),
        (
            "--select RPL0 --config 'target-vllm = \"0.31\"'",
            "'deploy dir' *.sh",
            ["check", "--select", "RPL0", "--config", 'target-vllm = "0.31"', "--fixed", "--", "deploy dir", "*.sh"],
        ),
        (
            '--config\r\n  target-vllm = "0.31"  \r\n\r\n',
            "deploy dir\n",
            ["check", "--config", 'target-vllm = "0.31"', "--fixed", "--", "deploy dir"],
        ),
        ("$HOME `id` $(id)", "~", ["check", "$HOME", "`id`", "$(id)", "--fixed", "--", "~"]),
    ],
    ids=["empty", "one-line", "one-a-line", "nothing-expanded"],
)
def test_ci_job_splits_options_and_paths_as_written(options: str, paths: str, argv: list[str]) -> None:
    """One line: shell words, quotes group, nothing expanded; several lines (a YAML `|`, CRLF
    too): one argument a line, blanks around it and empty lines dropped. The template's own
    options come last, the paths after `--`."""
    assert ci_job.check_argv(options, paths, ["--fixed"]) == argv


def test_ci_job_refuses_an_unclosed_quote_with_a_message(capsys) -> None:
    assert ci_job.main(["--config 'target-vllm = 0.31", "."]) == 2
    assert 'cannot split "--config \'target-vllm = 0.31" into arguments: No closing quotation.' in capsys.readouterr().err


# Running the action's steps: each `run:` as GitHub runs a bash step, with the runner's files
# (GITHUB_PATH, GITHUB_ENV, GITHUB_OUTPUT) and the step's `env:`; `uses:` steps are recorded,
# not run. The action is a copy of this checkout, as the runner downloads it for `uses:`.
_EXPRESSION = re.compile(r"\$\{\{\s*(inputs\.([\w-]+)|steps\.([\w-]+)\.outputs\.([\w-]+))\s*\}\}")
_CONDITION = re.compile(r"inputs\.([\w-]+) == '([^']*)'")


def _expand(value: object, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    def value_of(match: re.Match) -> str:
        return inputs[match[2]] if match[2] else outputs.get(match[3], {}).get(match[4], "")

    return _EXPRESSION.sub(value_of, str(value))


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


@dataclass(frozen=True)
class ActionRun:
    steps: list[dict]  # each step that ran: name, exit code and output, or the action used and its `with:`
    outputs: dict[str, str]  # the action's outputs
    step_outputs: dict[str, dict[str, str]]  # each step's, by id
    path_added: str  # what the steps wrote to GITHUB_PATH and GITHUB_ENV, for every later step
    env_added: str


def run_action(given: dict[str, str], workspace: Path, runner: Path, action: Path, installed: dict[str, str] | None = None) -> ActionRun:
    """The action's steps in `workspace`, RUNNER_TEMP being `runner`. With `installed` (the
    Install step's outputs from an earlier run), that step is not run again."""
    metadata = yaml.safe_load((action / "action.yml").read_text())
    inputs = {name: str(spec.get("default", "")) for name, spec in metadata["inputs"].items()} | given
    files = {name: runner / f"github-{name}" for name in ("path", "env", "output")}
    files["path"].write_text("")
    files["env"].write_text("")
    steps, outputs = [], {}
    for step in metadata["runs"]["steps"]:
        if not _runs(step.get("if"), inputs):
            continue
        if installed is not None and step.get("id") == "install":
            outputs["install"] = installed
            continue
        if "uses" in step:
            steps.append(
                {"name": step["name"], "uses": step["uses"], "with": {k: _expand(v, inputs, outputs) for k, v in step["with"].items()}}
            )
            continue
        added = [line for line in files["path"].read_text().splitlines() if line]
        files["output"].write_text("")
        environment = ci_job_environment(
            *reversed(added),
            RUNNER_OS="Linux",
            RUNNER_TEMP=str(runner),
            GITHUB_ACTION_PATH=str(action),
            GITHUB_WORKSPACE=str(workspace),
            **{f"GITHUB_{name.upper()}": str(file) for name, file in files.items()},
            **{name: _expand(value, inputs, outputs) for name, value in step.get("env", {}).items()},
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
    values = {name: _expand(spec["value"], inputs, outputs) for name, spec in metadata["outputs"].items()}
    return ActionRun(steps, values, outputs, files["path"].read_text(), files["env"].read_text())


ACTION_VERSION = f"{replaylint.__version__}+action.copy"


@pytest.fixture(scope="module")
def action_checkout(tmp_path_factory) -> Path:
    """This checkout's files (tracked, and new ones not ignored) in a folder of their own, as
    the runner downloads an action for `uses:`, its version marked so that what is installed
    can be told from anything on a package index."""
    if shutil.which("git") is None:
        pytest.skip("git lists the checkout's files")
    folder = tmp_path_factory.mktemp("action")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, check=True
    )
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (REPO / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, folder / name)
    package = folder / "src" / "replaylint" / "__init__.py"
    package.write_text(package.read_text().replace(f'"{replaylint.__version__}"', f'"{ACTION_VERSION}"', 1))
    return folder


def write_launches(workspace: Path, *names: str, text: str = BAD_LAUNCH) -> None:
    for name in names:
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)


@pytest.fixture(scope="module")
def action_run(action_checkout: Path, tmp_path_factory) -> tuple[ActionRun, Path, Path]:
    """The whole action, SARIF included, on launches in `deploy dir/` (a name with a space)
    and in `docs/` (not among the paths given), with options on several lines holding quotes."""
    workspace, runner = tmp_path_factory.mktemp("workspace"), tmp_path_factory.mktemp("runner")
    (workspace / ".git").mkdir()
    write_launches(workspace, "deploy dir/serve.sh", "docs/serve.sh")
    given = {"paths": "'deploy dir'", "args": '--config\ntarget-vllm = "0.31"\n', "sarif": "true"}
    return run_action(given, workspace, runner, action_checkout), workspace, runner


@pytest.mark.slow
def test_the_action_installs_its_own_checkout_annotates_and_fails_on_findings(action_run: tuple[ActionRun, Path, Path]) -> None:
    run, workspace, runner = action_run
    assert [step["name"] for step in run.steps] == [
        "Install replaylint",
        "Write the SARIF report",
        "Upload the SARIF report to code scanning",
        "Check",
    ]
    install, sarif, upload, check = run.steps
    assert install["returncode"] == 0, install["output"]
    assert sarif["returncode"] == 0, sarif["output"]
    installed = subprocess.run(
        [run.step_outputs["install"]["python"], "-I", "-m", "replaylint", "--version"], capture_output=True, text=True
    )
    assert installed.stdout == f"replaylint {ACTION_VERSION}\n"  # the action's own code
    report = Path(run.outputs["sarif-file"])
    assert report.parent.parent == runner and not report.is_relative_to(workspace)
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"] == {"sarif_file": str(report), "category": "replaylint"}
    text = report.read_text()
    assert '"ruleId": "RPL003"' in text and "deploy%20dir/serve.sh" in text and "docs/serve.sh" not in text
    assert check["returncode"] == 1
    assert check["output"].startswith("::error file=deploy dir/serve.sh,line=2,")
    assert "vLLM 0.31.0 says" in check["output"] and "docs/serve.sh" not in check["output"]


@pytest.mark.slow
def test_the_action_leaves_path_and_the_checkout_as_it_found_them(action_run: tuple[ActionRun, Path, Path]) -> None:
    run, workspace, _ = action_run
    assert run.path_added == "" and run.env_added == ""  # later steps find the python and pip they had
    written = {path.name for path in workspace.iterdir()} - {".git", "deploy dir", "docs"}
    assert written <= {".replaylint_cache"}  # the report is outside the checkout; replaylint's own cache may be there


@pytest.mark.slow
def test_the_action_passes_a_clean_tree_without_sarif(
    action_run: tuple[ActionRun, Path, Path], action_checkout: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    write_launches(
        workspace,
        "serve.sh",
        text=BAD_LAUNCH.replace("--return-sampling-mask", "--return-sampling-mask --logprobs-mode processed_logprobs"),
    )
    run = run_action({}, workspace, tmp_path, action_checkout, action_run[0].step_outputs["install"])
    assert [(step["name"], step["returncode"]) for step in run.steps] == [("Check", 0)], run.steps
    assert run.outputs == {"sarif-file": ""}


# Running the GitLab job's script: its lines in one `sh -e`, as GitLab's runner runs them, with
# the job's variables, `python` being a fresh Python environment standing for the image.
GITLAB_JOB = yaml.safe_load(GITLAB.read_text())["replaylint"]


def _is_install(line: str) -> bool:
    return "pip install" in line or line.startswith("replaylint_home=")


def run_gitlab_job(project: Path, image: Path, installed: str | None = None, **variables: str) -> subprocess.CompletedProcess:
    """The job's script in `project`. With `installed` (the folder an earlier run installed
    into), the install lines are not run again."""
    script = GITLAB_JOB["script"]
    if installed is not None:
        script = [f"replaylint_home={shlex.quote(installed)}", *(line for line in script if not _is_install(line))]
    environment = ci_job_environment(str(image / "bin"), **(GITLAB_JOB["variables"] | variables), CI_PROJECT_DIR=str(project))
    traced = []
    for line in script:
        traced.append(line)
        if line.startswith("replaylint_home="):  # told, for the runs that reuse this install
            traced.append('echo "REPLAYLINT_HOME=$replaylint_home"')
    return subprocess.run(["sh", "-e", "-c", "\n".join(traced)], cwd=project, env=environment, capture_output=True, text=True)


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("image")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder


@pytest.fixture(scope="module")
def gitlab_run(action_checkout: Path, image: Path, tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """The whole job, replaylint installed from REPLAYLINT_SOURCE (this checkout's copy, where
    the template's default is GitHub's archive of its release), with options holding quotes and
    a pattern a shell would expand (two `.yml` files lie in the project), and a path with a space."""
    project = tmp_path_factory.mktemp("project")
    (project / ".git").mkdir()
    write_launches(project, "deploy dir/serve.sh", "docs/serve.sh")
    write_launches(project, "a.yml", "b.yml", text="key: value\n")
    done = run_gitlab_job(
        project,
        image,
        REPLAYLINT_SOURCE=str(action_checkout),
        REPLAYLINT_ARGS="--config 'target-vllm = \"0.31\"' --extend-exclude *.yml",
        REPLAYLINT_PATHS="'deploy dir'",
    )
    return done, project


@pytest.mark.slow
@pytest.mark.skipif("gitlab" not in FORMATS, reason="--output-format gitlab is not in this checkout")
def test_the_gitlab_job_writes_the_report_and_fails_on_findings(gitlab_run: tuple[subprocess.CompletedProcess, Path]) -> None:
    done, project = gitlab_run
    assert done.returncode == 1, done.stdout + done.stderr
    assert "deploy dir/serve.sh:2:26: RPL003" in done.stdout and "vLLM 0.31.0 says" in done.stdout
    assert "docs/serve.sh" not in done.stdout
    (issue,) = json.loads((project / GITLAB_JOB["artifacts"]["reports"]["codequality"]).read_text())
    location = issue["location"]  # GitLab reads `lines.begin` or `positions.begin.line`
    assert location["path"] == "deploy dir/serve.sh"
    assert (location["lines"]["begin"] if "lines" in location else location["positions"]["begin"]["line"]) == 2
    assert "RPL003" in issue["check_name"] and issue["fingerprint"] and issue["description"]


def _installed_home(done: subprocess.CompletedProcess) -> str:
    return re.findall(r"^REPLAYLINT_HOME=(.+)$", done.stdout, re.M)[-1]


def run_installed(template: str, request: pytest.FixtureRequest, workspace: Path, args: str, paths: str) -> tuple[int, str]:
    """The template's steps after its install (the module's first run installed replaylint),
    with these options and paths: the exit status and the output."""
    if template == "action":
        run = run_action(
            {"args": args, "paths": paths}, workspace, workspace.parent, request.getfixturevalue("action_checkout"),
            request.getfixturevalue("action_run")[0].step_outputs["install"],
        )  # fmt: skip
        (check,) = run.steps
        return check["returncode"], check["output"]
    home = _installed_home(request.getfixturevalue("gitlab_run")[0])
    done = run_gitlab_job(workspace, request.getfixturevalue("image"), home, REPLAYLINT_ARGS=args, REPLAYLINT_PATHS=paths)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("template", ["action", "gitlab"])
@pytest.mark.parametrize(
    ("args", "paths", "returncode", "said"),
    [
        pytest.param("--config 'target-vllm = \"0.31\"'", "'deploy dir'", 1, "vLLM 0.31.0 says", id="quoted-on-one-line"),
        pytest.param('--config\ntarget-vllm = "0.31"\n', "deploy dir\n", 1, "vLLM 0.31.0 says", id="one-a-line"),
        pytest.param("--target-vllm 0.31", "deploy\\ dir", 1, "vLLM 0.31.0 says", id="backslash"),
        pytest.param("--extend-exclude *.sh", ".", 0, "all checks passed", id="glob-not-expanded"),
        pytest.param('--config \'target-vllm = "0.31"', ".", 2, "cannot split", id="unclosed-quote"),
    ],
)
def test_the_templates_pass_arguments_as_written(
    template: str, request: pytest.FixtureRequest, tmp_path: Path, args: str, paths: str, returncode: int, said: str
) -> None:
    """Each argument reaches replaylint as written: a value with spaces and quotes, a path with
    a space, a pattern that a shell would have expanded (into `a.sh b.sh`, an extra path)."""
    workspace = tmp_path / "workspace"
    write_launches(workspace, "deploy dir/serve.sh", "a.sh", "b.sh")
    status, output = run_installed(template, request, workspace, args, paths)
    assert status == returncode, output
    assert said in output.lower() if said.islower() else said in output
    if returncode == 1:
        assert "deploy dir/serve.sh" in output and "a.sh" not in output


def readme_options(template: str) -> str:
    """The options README's snippet gives the template."""
    if template == "action":
        (step,) = [
            step for step in yaml.safe_load(readme_workflow())["jobs"]["replaylint"]["steps"] if step["uses"].startswith("replaylint/")
        ]
        return step["with"]["args"]
    blocks = re.findall(r"```yaml\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    (snippet,) = [yaml.safe_load(block) for block in blocks if "ci/gitlab/replaylint.gitlab-ci.yml" in block]
    return snippet["replaylint"]["variables"]["REPLAYLINT_ARGS"]


@pytest.mark.slow
@pytest.mark.parametrize("template", ["action", "gitlab"])
def test_the_readme_snippets_options_reach_replaylint(template: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    write_launches(workspace, "deploy/serve.sh")
    write_launches(workspace, "a.yml", "b.yml", text="key: value\n")  # what `*.yml` would have become
    status, output = run_installed(template, request, workspace, readme_options(template), ".")
    assert status == 1 and "vLLM 0.33.0 says" in output, output
