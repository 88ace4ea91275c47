#!/usr/bin/env python3
"""Make a release of replaylint and prove that every documented way to install it works.

    scripts/release.py bump X.Y.Z               # write the version everywhere it is pinned
    scripts/release.py check [--tag]            # pins agree; build; every install line works

`bump` writes X.Y.Z into every pin (PINS: the package's `__version__`, README's `rev:`,
`@vX.Y.Z` and `==X.Y.Z`, the GitLab template's `REPLAYLINT_REF`) and opens CHANGELOG's
`## [X.Y.Z] - DATE` section under `## [Unreleased]`, which then holds nothing.

`check` works on a clone of HEAD (uncommitted changes are not in a release), where it makes the
tag `vX.Y.Z`, builds the sdist and the wheel (`python -m build`, as pip does; `--no-isolation`
uses this Python's setuptools) into `dist/`, then installs replaylint each way README, the
Action and the GitLab template say, each into a fresh virtual environment, and runs it on a
fresh git repository holding a launch replay rejects, which must be reported (RPL003):

- the wheel and the sdist (`pip install FILE`);
- README's `pip install ...git+https://github.com/replaylint/replaylint@vX.Y.Z` lines, the
  address replaced by the clone's (`git+file://`);
- README's pre-commit configuration, `repo:` the clone, `rev:` as README gives it;
- the Action's install step (`pip install "$GITHUB_ACTION_PATH"`, the tag's files as the runner
  downloads them) and its check step;
- the GitLab template's script with `REPLAYLINT_SOURCE` the built sdist, and with the archive
  of the tag its default installs (GitHub's archive of `REPLAYLINT_REF`: `git archive` makes it).

With `--tag`, and only when every check passed, the repository itself gets the annotated tag
(its working tree must be clean, CHANGELOG must have the version's dated section). Nothing is
ever pushed. Dependencies come from the package index pip is configured with (or its cache).
Exit 0 when everything passed, 1 when a check failed, 2 when nothing could be checked.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
HOME = "https://github.com/replaylint/replaylint"
ACTION = "action.yml"
GITLAB = "ci/gitlab/replaylint.gitlab-ci.yml"
CHANGELOG = "CHANGELOG.md"
VERSION = r"(\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?)"
BAD_LAUNCH = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out\n"
FINDING = "serve.sh:2:26: RPL003"
# Who makes the clone's tag and the projects' commits, when git has no identity configured.
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "replaylint release",
    "GIT_AUTHOR_EMAIL": "release@localhost",
    "GIT_COMMITTER_NAME": "replaylint release",
    "GIT_COMMITTER_EMAIL": "release@localhost",
}


class Refused(Exception):
    """The release cannot go on: the message says why."""


@dataclass(frozen=True)
class Pin:
    path: str
    pattern: str  # holds VERSION: the group is the version, without its `v`
    what: str
    required: bool = False  # must be there at least once


PINS = (
    Pin("src/replaylint/__init__.py", rf'__version__ = "{VERSION}"', "the package's version", required=True),
    Pin("README.md", rf"rev: v{VERSION}", "pre-commit's `rev:`", required=True),
    Pin("README.md", rf"uses: replaylint/replaylint@v{VERSION}", "the Action's `uses:`", required=True),
    Pin("README.md", rf"git\+https://github\.com/replaylint/replaylint@v{VERSION}", "`pip install git+https://...`", required=True),
    Pin("README.md", rf"git\+file://\S*replaylint@v{VERSION}", "`pip install git+file://...` from a clone"),
    Pin("README.md", rf"dist/replaylint-{VERSION}-py3", "the wheel's name"),
    Pin("README.md", rf"ls-remote https://github\.com/replaylint/replaylint v{VERSION}", "the tag looked up for `uses:`"),
    Pin("README.md", rf"replaylint/replaylint/raw/v{VERSION}/", "GitLab's `include:`"),
    Pin("README.md", rf"own release, `v{VERSION}`", "the GitLab template's release"),
    Pin("README.md", rf"replaylint=={VERSION}", "a published version"),
    Pin("README.md", rf"`replaylint {VERSION}`", "`replaylint version`'s output"),
    Pin("README.md", rf'\{{"version": "{VERSION}"\}}', "`replaylint version`'s JSON"),
    Pin(GITLAB, rf"REPLAYLINT_REF: v{VERSION}", "the template's `REPLAYLINT_REF`", required=True),
    Pin(GITLAB, rf"replaylint/replaylint/raw/v{VERSION}/", "the template's `include:` example"),
)


@dataclass(frozen=True)
class Found:
    pin: Pin
    line: int
    version: str


def find_pins(repo: Path) -> list[Found]:
    found = []
    for pin in PINS:
        text = (repo / pin.path).read_text(encoding="utf-8")
        matches = list(re.finditer(pin.pattern, text))
        if pin.required and not matches:
            raise Refused(f"{pin.path} has no {pin.what} (/{pin.pattern}/): update PINS in scripts/release.py")
        found += [Found(pin, text.count("\n", 0, match.start()) + 1, match[1]) for match in matches]
    return found


def agreed_version(repo: Path) -> str:
    """The package's version, when every pin gives it."""
    found = find_pins(repo)
    version = found[0].version
    stale = [f"{item.pin.path}:{item.line}: {item.pin.what} is {item.version}" for item in found if item.version != version]
    if stale:
        raise Refused(f"the pins disagree with the package's version {version}:\n  " + "\n  ".join(stale))
    return version


def changelog_date(repo: Path, version: str) -> str | None:
    """The date of the version's CHANGELOG section (`## [X.Y.Z] - YYYY-MM-DD`), or None."""
    match = re.search(rf"^## \[{re.escape(version)}\] - (\d{{4}}-\d\d-\d\d)$", (repo / CHANGELOG).read_text(encoding="utf-8"), re.M)
    return match[1] if match else None


def bump(repo: Path, version: str, today: datetime.date) -> list[str]:
    """Every pin set to `version`, CHANGELOG's section opened; the files changed."""
    if not re.fullmatch(VERSION, version):
        raise Refused(f"{version!r} is not a version (X.Y.Z, or X.Y.ZrcN)")
    changed = []
    for path in dict.fromkeys(pin.path for pin in PINS):
        text = (repo / path).read_text(encoding="utf-8")
        new = text
        for pin in (pin for pin in PINS if pin.path == path):
            new = re.sub(pin.pattern, lambda match: match[0].replace(match[1], version), new)
        changed += _write_if_changed(repo / path, text, new)
    changelog = (repo / CHANGELOG).read_text(encoding="utf-8")
    if f"## [{version}]" not in changelog:
        if "\n## [Unreleased]\n" not in changelog:
            raise Refused(f"{CHANGELOG} has no `## [Unreleased]` heading to open {version}'s section under")
        section = f"\n## [Unreleased]\n\n## [{version}] - {today.isoformat()}\n"
        changed += _write_if_changed(repo / CHANGELOG, changelog, changelog.replace("\n## [Unreleased]\n", section, 1))
    return changed


def _write_if_changed(path: Path, old: str, new: str) -> list[str]:
    if new == old:
        return []
    path.write_text(new, encoding="utf-8")
    return [path.name]


# Running things: git without the user's hooks or templates, Python tools without this run's
# virtual environment (each install makes its own).


def run(argv: list[str | Path], cwd: Path, env: dict[str, str] | None = None, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run([str(arg) for arg in argv], cwd=cwd, env=env or clean_env(), capture_output=True, text=True, timeout=timeout)


def clean_env(**variables: str) -> dict[str, str]:
    here = Path(sys.executable).parent
    path = [entry for entry in os.environ.get("PATH", "").split(os.pathsep) if entry and Path(entry) != here]
    environment = {name: value for name, value in os.environ.items() if name not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    return environment | {"PATH": os.pathsep.join(path)} | variables


def git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """git in the scratch folder (its own identity there) or, given `env`, in the repository."""
    done = run(["git", "-c", "core.hooksPath=/dev/null", *args], cwd, env or clean_env(**GIT_IDENTITY))
    if done.returncode != 0:
        raise Refused(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def tagged_already(repo: Path, tag: str) -> bool:
    """Whether the repository has the tag at HEAD; refused when it names another commit."""
    head = git(repo, "rev-parse", "HEAD")
    existing = run(["git", "rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}"], repo).stdout.strip()
    if existing and existing != head:
        raise Refused(f"the tag {tag} already names another commit ({existing[:12]}); HEAD is {head[:12]}")
    return bool(existing)


def clone_at_tag(repo: Path, work: Path, tag: str, version: str) -> Path:
    """A clone of HEAD with the annotated tag (the repository's own when it has it at HEAD)."""
    existing = tagged_already(repo, tag)
    clone = work / "replaylint"
    git(work, "clone", "--quiet", "--no-local", str(repo), str(clone))
    if not existing:
        git(clone, "tag", "-a", tag, "-m", f"replaylint {version}")
    return clone


def build(clone: Path, out: Path, isolation: bool) -> dict[str, Path]:
    done = run([sys.executable, "-m", "build", "--outdir", out, *([] if isolation else ["--no-isolation"]), clone], clone)
    if done.returncode != 0:
        raise Refused("python -m build failed:\n" + (done.stdout + done.stderr)[-3000:])
    artifacts = {"sdist": sorted(out.glob("replaylint-*.tar.gz")), "wheel": sorted(out.glob("replaylint-*.whl"))}
    if any(len(files) != 1 for files in artifacts.values()):
        raise Refused(f"{out} should hold one sdist and one wheel: {sorted(path.name for path in out.iterdir())}")
    return {kind: files[0] for kind, files in artifacts.items()}


# The installs: each a fresh virtual environment and a fresh git repository with a bad launch.


@dataclass(frozen=True)
class Outcome:
    name: str
    how: str
    problem: str | None  # None: it worked
    seconds: float


@dataclass(frozen=True)
class Place:
    """Where one install way runs: its own folder, a project in it, the tag's clone, the version."""

    folder: Path
    clone: Path
    tag: str
    version: str

    @property
    def project(self) -> Path:
        return self.folder / "project"


def fresh_place(work: Path, name: str, clone: Path, tag: str, version: str) -> Place:
    place = Place(work / name, clone, tag, version)
    place.project.mkdir(parents=True)
    git(place.project, "init", "--quiet")
    (place.project / "serve.sh").write_text(BAD_LAUNCH)
    git(place.project, "add", "serve.sh")
    return place


def venv(folder: Path, *options: str) -> Path:
    """A fresh virtual environment's Python."""
    done = run([sys.executable, "-m", "venv", *options, folder], folder.parent)
    if done.returncode != 0:
        raise Refused(f"python -m venv {folder} failed: {done.stderr.strip()}")
    return folder / "bin" / "python"


def judged(done: subprocess.CompletedProcess, finding: str = FINDING) -> str | None:
    """None when the run failed on the bad launch and reported it."""
    output = done.stdout + done.stderr
    if done.returncode == 1 and finding in output:
        return None
    return f"expected exit 1 and {finding!r}, got exit {done.returncode}:\n{output[-2000:]}"


def check_pip(place: Place, requirements: list[str]) -> str | None:
    """Installed into a fresh environment, replaylint says its version and reports the launch."""
    python = venv(place.folder / "venv")
    done = run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements], place.folder)
    if done.returncode != 0:
        return f"pip install {' '.join(requirements)} failed:\n{(done.stdout + done.stderr)[-2000:]}"
    shown = run([python, "-I", "-m", "replaylint", "--version"], place.project).stdout.strip()
    if shown != f"replaylint {place.version}":
        return f"`replaylint --version` says {shown!r}, not replaylint {place.version}"
    return judged(run([python.parent / "replaylint", "check", "."], place.project))


def readme_pip_lines(clone: Path) -> list[str]:
    """README's `pip install` lines that install from the repository at a tag."""
    blocks = re.findall(r"```sh\n(.*?)```", (clone / "README.md").read_text(encoding="utf-8"), re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines()]
    return [line.split("  #")[0].strip() for line in lines if line.startswith("pip install") and f"git+{HOME}@" in line]


def local_requirements(line: str, clone: Path) -> list[str]:
    """The line's requirements, the repository's address replaced by the clone's (with a host:
    pip refuses `name @ git+file:///path`, a direct reference without one)."""
    words = shlex.split(line, comments=True)[2:]
    return [word.replace(f"git+{HOME}@", f"git+file://localhost{clone}@") for word in words]


def readme_precommit_config(clone: Path) -> str:
    blocks = re.findall(r"```yaml\n(.*?)```", (clone / "README.md").read_text(encoding="utf-8"), re.S)
    (config,) = [block for block in blocks if f"repo: {HOME}\n" in block]
    return config.replace(f"repo: {HOME}\n", f"repo: {clone}\n")


def check_precommit(place: Place) -> str | None:
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not pre_commit.exists():
        return f"pre-commit is not installed next to {sys.executable} (pip install pre-commit)"
    (place.project / ".pre-commit-config.yaml").write_text(readme_precommit_config(place.clone))
    git(place.project, "add", ".pre-commit-config.yaml")
    home = place.folder / "pre-commit-home"
    return judged(run([pre_commit, "run", "--all-files"], place.project, clean_env(PRE_COMMIT_HOME=str(home))))


def export_tag(place: Place, archive: Path) -> Path:
    """The tag's files as GitHub serves them: a tar.gz of `git archive` with one top folder."""
    git(place.clone, "archive", "--format=tar.gz", f"--prefix=replaylint-{place.tag}/", f"--output={archive}", place.tag)
    return archive


_EXPRESSION = re.compile(r"\$\{\{\s*(?:inputs\.([\w-]+)|steps\.([\w-]+)\.outputs\.([\w-]+))\s*\}\}")


def check_action(place: Place) -> str | None:
    """The action's install step, then its check step, with its default inputs, as a runner runs
    them: bash, the tag's files at GITHUB_ACTION_PATH, the step outputs through GITHUB_OUTPUT."""
    action = place.folder / "action"
    action.mkdir()
    run(["tar", "-xzf", export_tag(place, place.folder / "action.tar.gz"), "--strip-components=1", "-C", action], place.folder)
    metadata = yaml.safe_load((action / ACTION).read_text())
    inputs = {name: str(spec.get("default", "")) for name, spec in metadata["inputs"].items()}
    steps = {step.get("id") or step["name"]: step for step in metadata["runs"]["steps"]}
    outputs: dict[str, dict[str, str]] = {}
    for name in ("install", "Check"):
        step, output = steps[name], place.folder / f"github-output-{name}"
        output.write_text("")

        def expand(match: re.Match) -> str:
            return inputs[match[1]] if match[1] else outputs.get(match[2], {}).get(match[3], "")

        env = {key: _EXPRESSION.sub(expand, str(value)) for key, value in step.get("env", {}).items()}
        environment = clean_env(
            RUNNER_OS="Linux", RUNNER_TEMP=str(place.folder), GITHUB_ACTION_PATH=str(action), GITHUB_OUTPUT=str(output), **env
        )
        done = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], place.project, environment)
        outputs[name] = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        if name == "install" and done.returncode != 0:
            return f"the install step failed:\n{(done.stdout + done.stderr)[-2000:]}"
    return judged(done, "::error file=serve.sh,line=2,")


def check_gitlab(place: Place, source: Path) -> str | None:
    """The template's script in `sh -e`, its variables and REPLAYLINT_SOURCE, `python` being a
    fresh virtual environment's (the image's); the Code Quality report must hold the finding."""
    job = yaml.safe_load((place.clone / GITLAB).read_text())["replaylint"]
    image = venv(place.folder / "image", "--without-pip").parent
    variables = {name: str(value) for name, value in job["variables"].items()} | {"REPLAYLINT_SOURCE": str(source)}
    environment = clean_env(**variables) | {"PATH": f"{image}{os.pathsep}{clean_env()['PATH']}"}
    done = run(["sh", "-e", "-c", "\n".join(job["script"])], place.project, environment)
    problem = judged(done)
    if problem:
        return problem
    report = place.project / job["artifacts"]["reports"]["codequality"]
    issues = json.loads(report.read_text()) if report.is_file() else []
    if not any(issue["location"]["path"] == "serve.sh" and "RPL003" in issue["check_name"] for issue in issues):
        return f"the Code Quality report {report.name} does not hold the finding: {issues}"
    return None


def install_checks(place_for, artifacts: dict[str, Path], clone: Path) -> list[Outcome]:
    """Every install way, run in turn; `place_for(name)` makes each its fresh place."""
    if not readme_pip_lines(clone):
        raise Refused(f"README has no `pip install ... git+{HOME}@vX.Y.Z` line to check")
    ways = [
        ("wheel", f"pip install {artifacts['wheel'].name}", lambda place: check_pip(place, [str(artifacts["wheel"])])),
        ("sdist", f"pip install {artifacts['sdist'].name}", lambda place: check_pip(place, [str(artifacts["sdist"])])),
    ]
    for number, line in enumerate(readme_pip_lines(clone), 1):
        ways.append((f"readme-git-{number}", line, lambda place, line=line: check_pip(place, local_requirements(line, place.clone))))
    ways += [
        ("pre-commit", "README's .pre-commit-config.yaml, repo: the clone", check_precommit),
        ("action", 'action.yml: pip install "$GITHUB_ACTION_PATH", then its check step', check_action),
        ("gitlab-sdist", "the GitLab template, REPLAYLINT_SOURCE: the sdist", lambda place: check_gitlab(place, artifacts["sdist"])),
        (
            "gitlab-archive",
            "the GitLab template, REPLAYLINT_SOURCE: the tag's archive (its default, from GitHub)",
            lambda place: check_gitlab(place, export_tag(place, place.folder / f"{place.tag}.tar.gz")),
        ),
    ]
    outcomes = []
    for name, how, check in ways:
        started = time.monotonic()
        try:
            problem = check(place_for(name))
        except (Refused, OSError, subprocess.SubprocessError, ValueError, KeyError) as error:  # a template changed its shape
            problem = str(error)
        outcomes.append(Outcome(name, how, problem, time.monotonic() - started))
        print(f"{'ok  ' if problem is None else 'FAIL'} {name}: {how} ({outcomes[-1].seconds:.0f} s)", flush=True)
        if problem:
            print("     " + problem.replace("\n", "\n     "), flush=True)
    return outcomes


def check(repo: Path, dist: Path, tag_it: bool, isolation: bool) -> int:
    version = agreed_version(repo)
    tag = f"v{version}"
    dirty = git(repo, "status", "--porcelain", "--untracked-files=normal")
    if tag_it and dirty:
        raise Refused(f"--tag needs a clean working tree (the tag names HEAD); git status:\n{dirty}")
    if tag_it and not changelog_date(repo, version):
        raise Refused(f"{CHANGELOG} has no `## [{version}] - YYYY-MM-DD` section (scripts/release.py bump {version} opens it)")
    if dirty:
        print("note: the working tree has uncommitted changes; HEAD is what is checked", flush=True)
    with tempfile.TemporaryDirectory(prefix="replaylint-release-") as scratch:
        work = Path(scratch)
        clone = clone_at_tag(repo, work, tag, version)
        if agreed_version(clone) != version:
            raise Refused(f"HEAD's pins give {agreed_version(clone)}, the working tree's {version}: commit them first")
        dist.mkdir(parents=True, exist_ok=True)
        for old in [*dist.glob(f"replaylint-{version}.tar.gz"), *dist.glob(f"replaylint-{version}-*.whl")]:
            old.unlink()
        artifacts = build(clone, dist, isolation)
        print(f"built {artifacts['sdist'].name} and {artifacts['wheel'].name} in {dist}", flush=True)
        outcomes = install_checks(lambda name: fresh_place(work, name, clone, tag, version), artifacts, clone)
    failed = [outcome.name for outcome in outcomes if outcome.problem]
    if failed:
        print(f"{len(failed)} of {len(outcomes)} install ways failed: {', '.join(failed)}; no tag made")
        return 1
    print(f"all {len(outcomes)} install ways work for replaylint {version}")
    if tag_it and tagged_already(repo, tag):
        print(f"HEAD already has the tag {tag}")
    elif tag_it:
        git(repo, "tag", "-a", tag, "-m", f"replaylint {version}", env=dict(os.environ))  # the maintainer's identity
        print(f"tagged HEAD {tag} (annotated); nothing was pushed: git push origin {tag}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/release.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the repository (default: this checkout)")
    commands = parser.add_subparsers(dest="command", required=True)
    bumped = commands.add_parser("bump", help="write the version into every pin, open its CHANGELOG section")
    bumped.add_argument("version")
    checked = commands.add_parser("check", help="build, then install each documented way and check a bad launch")
    checked.add_argument("--tag", action="store_true", help="then make the annotated tag vX.Y.Z at HEAD (never pushed)")
    checked.add_argument("--dist", type=Path, help="where the sdist and wheel go (default: REPO/dist)")
    checked.add_argument("--no-isolation", action="store_true", help="build with this Python's setuptools (offline)")
    options = parser.parse_args(argv)
    repo = options.repo.resolve()
    try:
        if options.command == "bump":
            changed = bump(repo, options.version, datetime.date.today())
            print(f"version {options.version}: changed {', '.join(changed) or 'nothing'}")
            return 0
        dist = (options.dist or repo / "dist").resolve()
        return check(repo, dist, options.tag, isolation=not options.no_isolation)
    except Refused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
