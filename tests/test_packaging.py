"""What users install and build from. `python -m build` makes the sdist, then the wheel from the
unpacked sdist, as pip does; the sdist must be the whole source release (its tests run from it)
and the wheel the whole package (vLLM's option tables included), under the project's licence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

from replaylint.report.run import DOCS_URL, HOME_URL
from replaylint.vllm.releases import RELEASES

REPO = Path(__file__).resolve().parent.parent
# Tracked files the sdist leaves out: CI's own scripts and the project's lint set-up.
LEFT_OUT = (".ci/", ".gitignore", ".pre-commit-config.yaml")
# The tests run from the unpacked sdist: those that read its data (golden cases and their fixed
# twins, examples, the rule pages and the scripts that make them, vLLM's own code, the release
# fingerprints, the SARIF schema), about 15 s. The others need a git checkout or a package index.
TESTS_FROM_THE_SDIST = (
    "tests/test_fixtures.py",
    "tests/test_fixes.py",
    "tests/test_rule_examples.py",
    "tests/test_rule_docs.py",
    "tests/test_new_release.py",
    "tests/test_report_formats.py",
    "tests/test_cli.py",
    "tests/test_frameworks.py",
    "tests/test_vllm_releases.py",
)

pytest.importorskip("build")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Built from a copy of the working tree's files, as from a fresh clone: setuptools also puts
    into an sdist what a stale `*.egg-info/SOURCES.txt` of an earlier build lists."""
    tree = tmp_path_factory.mktemp("tree")
    for name in working_tree_files():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tree / name)
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(tree)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return {"sdist": next(out.glob("replaylint-*.tar.gz")), "wheel": next(out.glob("replaylint-*.whl"))}


@pytest.fixture(scope="module")
def unpacked_sdist(built, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("sdist")
    with tarfile.open(built["sdist"]) as archive:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python 3.10.12+, 3.11.4+
        archive.extractall(target, **safe)
    (root,) = target.iterdir()
    return root


def git_files(*options: str) -> list[str]:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout")
    listed = subprocess.run(["git", "ls-files", "-z", *options], cwd=REPO, capture_output=True, text=True, check=True).stdout.split("\0")
    return [name for name in listed if name and (REPO / name).is_file()]


def tracked_files() -> list[str]:
    return git_files("--cached")


def working_tree_files() -> list[str]:
    """What a commit of the working tree would hold: tracked files and new ones git does not ignore."""
    return git_files("--cached", "--others", "--exclude-standard")


def test_the_sdist_holds_every_tracked_file_and_no_cache(unpacked_sdist: Path) -> None:
    shipped = {path.relative_to(unpacked_sdist).as_posix() for path in unpacked_sdist.rglob("*") if path.is_file()}
    missing = [name for name in tracked_files() if name not in shipped and not name.startswith(LEFT_OUT)]
    assert missing == [], f"MANIFEST.in leaves these out of the sdist: {missing[:20]}"
    junk = [name for name in shipped if "__pycache__" in name or name.endswith(".pyc") or ".replaylint_cache" in name]
    assert junk == []


def test_the_suite_runs_from_the_unpacked_sdist(unpacked_sdist: Path) -> None:
    environment = {**os.environ, "PYTHONPATH": str(unpacked_sdist / "src")}
    imported = subprocess.run(
        [sys.executable, "-c", "import replaylint; print(replaylint.__file__)"],
        cwd=unpacked_sdist,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert Path(imported.stdout.strip()).is_relative_to(unpacked_sdist), imported.stdout + imported.stderr
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS_FROM_THE_SDIST],
        cwd=unpacked_sdist,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert " passed" in summary and "skipped" not in summary and "error" not in summary, summary


def test_the_wheel_holds_every_file_of_the_package(built) -> None:
    with zipfile.ZipFile(built["wheel"]) as wheel:
        shipped = set(wheel.namelist())
    package = [name.removeprefix("src/") for name in tracked_files() if name.startswith("src/replaylint/")]
    assert [name for name in package if name not in shipped] == []
    assert {f"replaylint/vllm/data/cli-options-{release}.json" for release in RELEASES} <= shipped
    assert "replaylint/py.typed" in shipped


def test_the_metadata_names_the_licence_and_the_address_the_reports_link_to(built) -> None:
    with zipfile.ZipFile(built["wheel"]) as wheel:
        (metadata_name,) = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = HeaderParser().parsestr(wheel.read(metadata_name).decode())
        licence = wheel.read(metadata_name.replace("METADATA", "licenses/LICENSE")).decode()
    assert metadata["License-Expression"] == "Apache-2.0"
    assert licence == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith(" " * 33 + "Apache License\n" + " " * 27 + "Version 2.0, January 2004\n")
    urls = dict(value.split(", ", 1) for value in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Repository", "Issues", "Changelog"}
    assert urls["Homepage"] == urls["Repository"] == HOME_URL
    assert DOCS_URL.startswith(HOME_URL + "/blob/main/") and urls["Changelog"] == HOME_URL + "/blob/main/CHANGELOG.md"
    assert all(url.startswith(HOME_URL) for url in urls.values())


def test_the_installed_wheel_reads_the_option_table_of_every_release(built, tmp_path: Path) -> None:
    """A range pin judges the launch at every release it admits, and the abbreviation `--return-s`
    is resolved through each release's option table: the installed package's own data files."""
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target", str(site), str(built["wheel"])],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "requirements.txt").write_text("vllm>=0.28,<0.35\n")
    (project / "serve.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-s --logprobs-mode raw_logprobs --enable-scale-out\n")
    check = [sys.executable, "-m", "replaylint", "check", "--no-cache", "--output-format", "json", "."]
    from_wheel = subprocess.run(check, cwd=project, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)
    from_source = subprocess.run(check, cwd=project, env={**os.environ, "PYTHONPATH": str(REPO / "src")}, capture_output=True, text=True)
    assert from_wheel.returncode == 1, from_wheel.stderr
    (finding,) = json.loads(from_wheel.stdout)
    assert finding["code"] == "RPL003" and finding["location"] == {"row": 2, "column": 53}
    assert finding["judged_by_vllm"] == ", ".join(str(release) for release in RELEASES)
    assert from_wheel.stdout == from_source.stdout
    where = subprocess.run(
        [sys.executable, "-c", "import replaylint; print(replaylint.__file__)"],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(site)
