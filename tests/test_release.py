"""scripts/release.py: the version pinned alike everywhere, `bump` moving every pin, `check --tag`
refusing what a release must not be, and (slow) the whole check on a copy of this repository:
the sdist and the wheel built, each documented install way working against them, the tag made
in the copy only."""

from __future__ import annotations

import datetime
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import replaylint

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

import release  # noqa: E402

TODAY = datetime.date(2026, 12, 5)
needs_git = pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="needs git and a git checkout")


def git(cwd: Path, *args: str) -> str:
    return release.git(cwd, *args)


def copy_files(target: Path, names: list[str]) -> Path:
    for name in names:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target / name)
    return target


def pinned_files(target: Path) -> Path:
    """The files that hold the version, in a git repository of their own."""
    copy_files(target, sorted({pin.path for pin in release.PINS} | {release.CHANGELOG}))
    git(target, "init", "--quiet")
    git(target, "add", "-A")
    git(target, "commit", "--quiet", "-m", "pins")
    return target


def test_every_pin_in_this_checkout_gives_the_package_version() -> None:
    """README's install lines, pre-commit `rev:`, `uses:` and GitLab `include:`, the template's
    REPLAYLINT_REF: all name the release the package declares."""
    found = release.find_pins(REPO)
    assert release.agreed_version(REPO) == replaylint.__version__
    assert {item.pin for item in found} >= {pin for pin in release.PINS if pin.required}
    assert len(release.readme_pip_lines(REPO)) >= 2  # the command line, and with the language server


@needs_git
def test_bump_moves_every_pin_and_opens_the_changelog_section(tmp_path: Path) -> None:
    repo = pinned_files(tmp_path)
    before = release.find_pins(repo)
    readme = (repo / "README.md").read_text()

    changed = release.bump(repo, "0.2.0", TODAY)

    assert sorted(changed) == ["CHANGELOG.md", "README.md", "__init__.py", "replaylint.gitlab-ci.yml"]
    after = release.find_pins(repo)
    assert [(item.pin, item.line) for item in after] == [(item.pin, item.line) for item in before]
    assert release.agreed_version(repo) == "0.2.0"
    changelog = (repo / release.CHANGELOG).read_text()
    assert "\n## [Unreleased]\n\n## [0.2.0] - 2026-12-05\n" in changelog
    assert release.changelog_date(repo, "0.2.0") == "2026-12-05"
    new_readme = (repo / "README.md").read_text()
    assert "pip install 'git+https://github.com/replaylint/replaylint@v0.2.0'" in new_readme
    # What is not a pin stays: other projects' tags, a measurement made with 0.1.0.
    for kept in ("(tags v0.5.0-v0.7.0)", "0.1.0 beside ruff"):
        assert (kept in readme) == (kept in new_readme)
    assert release.bump(repo, "0.2.0", TODAY) == []  # a second bump changes nothing


def test_bump_refuses_what_is_not_a_version(tmp_path: Path, capsys) -> None:
    assert release.main(["--repo", str(tmp_path), "bump", "v0.2"]) == 2
    assert "'v0.2' is not a version" in capsys.readouterr().err


@needs_git
@pytest.mark.parametrize(
    ("path", "old", "new", "said"),
    [
        ("README.md", "    rev: v0.", "    rev: v9.", "README.md:{line}: pre-commit's `rev:` is 9."),
        (release.GITLAB, "REPLAYLINT_REF: v", "REPLAYLINT_REF: ", "has no the template's `REPLAYLINT_REF`"),
    ],
    ids=["stale", "missing"],
)
def test_a_stale_or_missing_pin_stops_the_check_with_its_place(tmp_path: Path, capsys, path: str, old: str, new: str, said: str) -> None:
    repo = pinned_files(tmp_path)
    text = (repo / path).read_text()
    assert old in text
    (repo / path).write_text(text.replace(old, new, 1))
    line = text[: text.index(old)].count("\n") + 1
    assert release.main(["--repo", str(repo), "check"]) == 2
    assert said.format(line=line) in capsys.readouterr().err
    assert not (repo / "dist").exists()  # nothing was built


@needs_git
def test_tag_needs_a_clean_tree_and_the_versions_changelog_section(tmp_path: Path, capsys) -> None:
    repo = pinned_files(tmp_path)
    version = replaylint.__version__
    (repo / "notes.txt").write_text("not committed\n")
    assert release.main(["--repo", str(repo), "check", "--tag"]) == 2
    refused = capsys.readouterr().err
    assert "--tag needs a clean working tree" in refused and "?? notes.txt" in refused

    (repo / "notes.txt").unlink()
    (repo / release.CHANGELOG).write_text(
        re.sub(rf"^## \[{re.escape(version)}\].*\n", "", (repo / release.CHANGELOG).read_text(), flags=re.M)
    )
    git(repo, "commit", "--quiet", "--allow-empty", "-am", "no section")
    assert release.main(["--repo", str(repo), "check", "--tag"]) == 2
    assert f"has no `## [{version}] - YYYY-MM-DD` section" in capsys.readouterr().err
    assert git(repo, "tag", "--list") == ""


def working_tree_copy(target: Path) -> Path:
    """This checkout as a commit would hold it (tracked files and new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, check=True, text=True
    ).stdout.split("\0")
    copy_files(target, [name for name in listed if name and (REPO / name).is_file()])
    git(target, "init", "--quiet")
    git(target, "add", "-A")
    git(target, "commit", "--quiet", "-m", "snapshot")
    return target


@needs_git
@pytest.mark.slow
@pytest.mark.skipif(not Path(sys.executable).with_name("pre-commit").exists(), reason="pre-commit (test extra) is needed")
def test_the_release_check_installs_every_documented_way_and_tags_the_copy_only(tmp_path: Path) -> None:
    """About 6 minutes on 2 shared cores: a build and eight installs, each from the package index or pip's cache."""
    pytest.importorskip("build")
    repo = working_tree_copy(tmp_path / "repo")
    version = replaylint.__version__
    tags_here = git(REPO, "tag", "--list")
    release.bump(repo, version, TODAY)  # opens the version's CHANGELOG section, which --tag needs
    git(repo, "commit", "--quiet", "-am", f"release {version}")
    dist = tmp_path / "dist"

    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "release.py"), "--repo", str(repo), "check", "--tag", "--dist", str(dist)],
        capture_output=True,
        text=True,
        timeout=1800,
    )

    assert done.returncode == 0, done.stdout + done.stderr
    ways = re.findall(r"^ok   ([\w-]+): ", done.stdout, re.M)
    assert ways == ["wheel", "sdist", "readme-git-1", "readme-git-2", "pre-commit", "action", "gitlab-sdist", "gitlab-archive"]
    assert sorted(path.name for path in dist.iterdir()) == [f"replaylint-{version}-py3-none-any.whl", f"replaylint-{version}.tar.gz"]
    tag = f"v{version}"
    assert git(repo, "cat-file", "-t", tag) == "tag"  # annotated
    assert git(repo, "rev-parse", f"{tag}^{{commit}}") == git(repo, "rev-parse", "HEAD")
    assert git(REPO, "tag", "--list") == tags_here


@needs_git
def test_a_tag_of_the_version_on_another_commit_is_refused(tmp_path: Path, capsys) -> None:
    repo = pinned_files(tmp_path)
    tag = f"v{replaylint.__version__}"
    git(repo, "tag", "-a", tag, "-m", "earlier")
    git(repo, "commit", "--quiet", "--allow-empty", "-m", "later")
    assert release.main(["--repo", str(repo), "check"]) == 2
    assert f"the tag {tag} already names another commit" in capsys.readouterr().err
