"""Configuration per file, as ruff's hierarchical settings (issue 32 item 2): each file uses its
closest configuration file, whether the run is `check .` (CI), `check FILE`, pre-commit's
`check --hook FILES` or the language server."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from replaylint.cli.check import resolve_settings
from replaylint.cli.main import _parser
from replaylint.engine import hierarchy
from replaylint.server.analysis import Analysis, Workspace
from tests.test_configuration import BAD, run

SERVE = "#!/bin/sh\nvllm serve m --return-sampling-mask --enable-scale-out --logits-processors a:B\n"

# file: the codes its closest configuration leaves (RPL003 at 2:10 or 2:14, RPL001 after it)
EXPECTED = {
    "a.py": ["RPL003"],  # ./pyproject.toml ignores RPL001
    "serve.sh": ["RPL003"],
    "sub/b.py": ["RPL001"],  # sub/pyproject.toml ignores RPL003 (and not RPL001: no merging)
    "sub/deep/c.py": [],  # sub's per-file-ignores, relative to sub: "deep/*" = ["RPL001"]
    "sub/deep/serve.sh": [],
    "other/d.py": ["RPL003"],  # other/replaylint.toml selects RPL003 alone
    "other/nested/e.py": ["RPL001"],  # .replaylint.toml wins over replaylint.toml in one folder
    "plain/f.py": ["RPL003"],  # no configuration of its own: the closest above, ./pyproject.toml
    "deep/g.py": ["RPL003"],  # sub's "deep/*" does not reach the root's deep/
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    files = {
        "pyproject.toml": '[tool.replaylint]\nignore = ["RPL001"]\n',
        "sub/pyproject.toml": '[tool.replaylint]\nignore = ["RPL003"]\n\n[tool.replaylint.per-file-ignores]\n"deep/*" = ["RPL001"]\n',
        "other/replaylint.toml": 'select = ["RPL003"]\n',
        "other/nested/replaylint.toml": 'select = ["RPL003"]\n',
        "other/nested/.replaylint.toml": 'select = ["RPL001"]\n',
        "plain/pyproject.toml": "[tool.black]\nline-length = 100\n",  # configures another tool: not a replaylint configuration
    }
    for name in EXPECTED:
        files[name] = SERVE if name.endswith(".sh") else BAD
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def by_file(output: str) -> dict[str, list[tuple[str, int, int]]]:
    found: dict[str, list[tuple[str, int, int]]] = {}
    for finding in json.loads(output):
        name = os.path.normpath(finding["filename"]).replace(os.sep, "/")
        found.setdefault(name, []).append((finding["code"], finding["location"]["row"], finding["location"]["column"]))
    return found


def check(tree: Path, *args: str, hook: bool = False) -> dict[str, list[tuple[str, int, int]]]:
    """`replaylint check ARGS` (pre-commit's `check --hook ARGS` with `hook`): findings by file."""
    status, out, err = run(tree, "check", *(["--hook"] if hook else []), "--no-cache", "--output-format", "json", *args)
    assert status in (0, 1), err
    return by_file(out)


def served(tree: Path, name: str) -> list[tuple[str, int, int]]:
    """What the language server's analysis finds in the file, open in an editor of `tree`."""
    path = str(tree / name)
    workspace = Workspace(roots=(str(tree),), texts={path: (tree / name).read_text()})
    findings = Analysis().findings(workspace, path)
    return [(f.code, f.span.start_line, f.span.start_col) for f in findings if f.span.path == path]


def test_each_file_gets_its_closest_configuration_however_it_is_checked(tree: Path) -> None:
    whole = check(tree, ".")
    assert check(tree, "--workers", "2", ".") == whole  # worker processes resolve each file's configuration too
    hook_all = check(tree, *EXPECTED, hook=True)
    for name, codes in EXPECTED.items():
        alone = check(tree, name).get(name, [])
        assert [code for code, *_ in alone if code in ("RPL001", "RPL003")] == codes, name
        assert whole.get(name, []) == alone, f"check . and check {name} differ"
        assert hook_all.get(name, []) == alone, f"pre-commit's run and check {name} differ"
        assert check(tree, name, hook=True).get(name, []) == alone, name
        assert sorted(served(tree, name)) == sorted(alone), f"the language server and check {name} differ"


def codes_by_file(found: dict[str, list[tuple[str, int, int]]]) -> dict[str, list[str]]:
    return {name: [code for code, *_ in findings] for name, findings in found.items()}


def test_config_file_and_isolated_hold_for_every_file(tree: Path) -> None:
    named = codes_by_file(check(tree, "--config", "other/replaylint.toml", "."))
    assert named == {name: ["RPL003"] for name in EXPECTED}
    isolated = codes_by_file(check(tree, "--isolated", "."))
    assert {name for name in EXPECTED if {"RPL001", "RPL003"} <= set(isolated.get(name, ()))} == set(EXPECTED)


def test_command_line_options_override_each_files_configuration(tree: Path) -> None:
    found = codes_by_file(check(tree, "--extend-ignore", "RPL001", "--extend-select", "RPL003", "."))
    assert "sub/b.py" not in found  # sub's configuration ignores RPL003, the command line RPL001
    assert found["a.py"] == ["RPL003"] and found["other/nested/e.py"] == ["RPL003"]
    targeted = codes_by_file(check(tree, "--per-file-ignores", "*.py:RPL003", "."))
    assert targeted == {"serve.sh": ["RPL003"], "sub/b.py": ["RPL001"], "other/nested/e.py": ["RPL001"]}


def test_nested_excludes_are_relative_to_their_folder(tree: Path) -> None:
    (tree / "sub" / "pyproject.toml").write_text('[tool.replaylint]\nextend-exclude = ["gen/*.py"]\n')
    for name in ("sub/gen/x.py", "gen/x.py"):
        (tree / name).parent.mkdir(exist_ok=True)
        (tree / name).write_text(BAD)
    whole = check(tree, ".")
    assert "sub/gen/x.py" not in whole and "gen/x.py" in whole and "sub/b.py" in whole
    assert "sub/gen/x.py" in check(tree, "sub/gen/x.py")  # a file named is checked, as ruff does
    assert check(tree, "sub/gen/x.py", hook=True) == {}  # unless excludes are forced (pre-commit)
    status, out, _ = run(tree, "check", "--show-files", ".")
    assert "sub/gen/x.py" not in out.split() and "gen/x.py" in out.split()


def test_a_parents_excludes_stop_at_a_folder_with_its_own_configuration(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["RPL001"]\nextend-exclude = ["generated", "sub/b.py"]\n')
    for name in ("sub/generated/x.py", "generated/y.py"):
        (tree / name).parent.mkdir(exist_ok=True)
        (tree / name).write_text(BAD)
    whole = check(tree, ".")
    assert "generated/y.py" not in whole  # the root's own exclude
    assert {"sub/generated/x.py", "sub/b.py"} <= set(whole)  # sub's configuration decides below sub, as in ruff
    assert whole["sub/generated/x.py"] == check(tree, "sub/generated/x.py", hook=True)["sub/generated/x.py"]
    assert set(check(tree, "a.py", "generated/y.py", "sub/generated/x.py", hook=True)) == {"a.py", "sub/generated/x.py"}
    assert set(check(tree, "sub/generated", "generated")) == {"sub/generated/x.py"}  # each folder its own configuration's
    (tree / "README.md").write_text("# notes\n")
    status, out, _ = run(tree, "check", "--hook", "--no-cache", "--output-format", "concise", "README.md", "sub/generated/x.py")
    assert status == 1 and "sub/generated/x.py:2:" in out  # pre-commit's quick path too


def test_a_tree_read_while_it_is_walked_gives_the_files_its_configurations_and_git_choose(
    tree: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The forked reader reads each file as soon as the walk finds it; sub's configuration then
    # leaves out a file the root's walk found (gen/*.py) and adds one the root's excludes
    # skipped (generated); git ignores two files, one of them tracked all the same.
    from replaylint.engine import checker
    from replaylint.run import forked_reader, scheduler

    (tree / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["RPL001"]\nextend-exclude = ["generated"]\n')
    (tree / "sub" / "pyproject.toml").write_text('[tool.replaylint]\nextend-exclude = ["gen/*.py"]\n')
    (tree / ".gitignore").write_text("forced.py\nuntracked.py\n")
    for name in ("sub/gen/x.py", "sub/generated/y.py", "generated/z.py", "forced.py", "untracked.py"):
        (tree / name).parent.mkdir(exist_ok=True)
        (tree / name).write_text(BAD)
    subprocess.run(["git", "add", "-f", "forced.py"], cwd=tree, check=True)
    alone = check(tree, "--workers", "1", ".")
    assert {"sub/generated/y.py", "forced.py", "sub/b.py"} <= set(alone)
    assert not {"sub/gen/x.py", "generated/z.py", "untracked.py"} & set(alone)

    log = tmp_path_factory.mktemp("log") / "checked"
    check_data, add, this_process = checker.Checker.check_data, forked_reader._Reader.add, os.getpid()

    def logged(self, path, data):
        with open(log, "a") as out:
            out.write(f"{'main' if os.getpid() == this_process else 'reader'} {os.path.normpath(path)}\n")
        return check_data(self, path, data)

    def add_and_wait(self, paths: list[str], walked: str | None) -> None:  # the reader takes each chunk before the walk goes on
        add(self, paths, walked)
        for _ in range(2000):
            if forked_reader.struct.unpack_from("q", self.shared, 0)[0] >= self.published:
                break
            time.sleep(0.005)

    monkeypatch.setattr(scheduler, "LARGE_TREE_FILES", 1)
    monkeypatch.setattr(forked_reader, "_CHUNK", 1)
    monkeypatch.setattr(forked_reader._Reader, "add", add_and_wait)
    monkeypatch.setattr(checker.Checker, "check_data", logged)
    assert check(tree, "--workers", "2", ".") == alone
    assert "reader sub/gen/x.py" in log.read_text().splitlines()  # read while walked, then left out


def test_the_cache_keeps_each_files_configuration(tree: Path) -> None:
    cached = ("--cache-dir", str(tree / ".cache"))
    cold = by_file(run(tree, "check", *cached, "--output-format", "json", ".")[1])
    assert codes_by_file(cold)["sub/b.py"] == ["RPL001"]
    assert by_file(run(tree, "check", *cached, "--output-format", "json", ".")[1]) == cold
    (tree / "sub" / "pyproject.toml").write_text("[tool.replaylint]\nignore = []\n")  # a nested file alone changes
    changed = codes_by_file(by_file(run(tree, "check", *cached, "--output-format", "json", ".")[1]))
    assert changed["sub/b.py"] == changed["sub/deep/c.py"] == ["RPL003", "RPL001"]
    assert changed == codes_by_file(check(tree, "."))


def test_show_settings_of_a_file_is_its_closest_configuration(tree: Path) -> None:
    for name, source in (("sub/deep/c.py", "sub/pyproject.toml"), ("other/nested/e.py", "other/nested/.replaylint.toml")):
        status, out, _ = run(tree, "show-settings", name)
        assert status == 0 and out.splitlines()[0] == f"# configuration: {tree / source}"
    assert run(tree, "show-settings", "plain/f.py")[1].splitlines()[0] == f"# configuration: {tree / 'pyproject.toml'}"


def test_a_broken_nested_configuration_stops_the_run_naming_it(tree: Path) -> None:
    (tree / "other" / "replaylint.toml").write_text("ignore = [\n")
    status, out, err = run(tree, "check", "--no-cache", ".")
    assert status == 2 and "other/replaylint.toml: not valid TOML" in err and "Traceback" not in err


def test_each_folder_is_searched_once(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[str] = []
    find = hierarchy.find_config_file

    def counting(start: str, known: dict | None = None) -> str | None:
        searched.append(start)
        return find(start, known)

    monkeypatch.chdir(tree)
    settings = resolve_settings(_parser().parse_args(["check", "."]))
    monkeypatch.setattr(hierarchy, "find_config_file", counting)
    for _ in range(3):
        for name in EXPECTED:
            settings.for_path(name)
    assert sorted(searched) == sorted({os.path.dirname(name) or "." for name in EXPECTED})


def test_a_walk_searches_only_the_folders_that_may_change_the_configuration(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a repository the search trusts, a walked folder whose folders up to the walk hold no
    `.git` and no configuration file's name has the walk's configuration: it is not searched."""
    searched: list[str] = []
    find = hierarchy.find_config_file

    def counting(start: str, known: dict | None = None) -> str | None:
        searched.append(os.path.relpath(start, tree).replace(os.sep, "/"))
        return find(start, known)

    monkeypatch.chdir(tree)
    monkeypatch.setattr(hierarchy, "find_config_file", counting)
    settings = resolve_settings(_parser().parse_args(["check", "."]))
    walked = settings.files(["."])
    # not deep/ (the root's); sub/deep/ is, below sub's own configuration, which the first walk did not use
    assert sorted(set(searched)) == [".", "other", "other/nested", "plain", "sub", "sub/deep"]
    assert {os.path.normpath(path).replace(os.sep, "/") for path in walked} >= set(EXPECTED)
    assert settings.for_path(os.path.join("deep", "g.py")) is settings.for_path("a.py")
    assert settings.for_path(os.path.join("sub", "deep", "c.py")) is settings.for_path(os.path.join("sub", "b.py"))


def test_fixes_follow_each_files_configuration(tree: Path) -> None:
    (tree / "sub" / "pyproject.toml").write_text('[tool.replaylint]\nunfixable = ["RPL003"]\n')
    status, _, err = run(tree, "check", "--no-cache", "--fix", "a.py", "sub/b.py", "plain/f.py")
    assert "logprobs_mode='processed_logprobs'" in (tree / "a.py").read_text()
    assert "logprobs_mode='processed_logprobs'" in (tree / "plain" / "f.py").read_text()
    assert (tree / "sub" / "b.py").read_text() == BAD  # sub's configuration makes RPL003 unfixable there


def test_a_config_override_applies_over_every_files_configuration(tree: Path) -> None:
    found = codes_by_file(check(tree, "--config", 'ignore = ["RPL003"]', "."))
    assert found["sub/b.py"] == found["other/nested/e.py"] == ["RPL001"]
    assert found["a.py"] == ["RPL001"]  # the override replaces the root's `ignore`, as ruff's --config does
    assert "other/d.py" not in found  # its configuration selects RPL003 alone


def test_a_code_the_run_makes_unfixable_is_fixed_where_a_nested_configuration_allows_it(tree: Path) -> None:
    for name in ("pyproject.toml", "sub/pyproject.toml"):  # sub/ is checked last
        (tree / name).write_text('[tool.replaylint]\nunfixable = ["RPL003"]\n')
    run(tree, "check", "--no-cache", "--fix", ".")
    assert "logprobs_mode='processed_logprobs'" in (tree / "other" / "d.py").read_text()  # other/replaylint.toml allows it
    assert (tree / "a.py").read_text() == (tree / "sub" / "b.py").read_text() == BAD
