"""The formats ruff users reach for in CI: gitlab, rdjson, azure, pylint, grouped.

Each is run through the command line on a small git repository, from one of its folders, with
the findings every format must carry: a safe fix, unsafe ones, a finding in a file other than the
launch's (a `--config` YAML), a warning, non-ASCII text before a finding and in a message. Where
ruff has the format, its output for the same kind of finding (ruff is a test dependency) is the
model the shape is compared with. The GitLab and reviewdog schemas in tests/data were written
from the consumers' specifications (their `$comment` says which); jsonschema validates. The
rdjson report also passes an independent validator of reviewdog's format from npm, where
`.ci/run` could install it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from replaylint.edits import apply_edits
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.model import LineIndex, Message
from replaylint.report import FORMATS, Run, render
from tests.test_configuration import run as run_cli
from tests.test_report_formats import PYTHON_BAD, SHELL_WARNING, check

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent

SERVE = (
    "# Démarrage du serveur — réplique\n"
    "vllm serve /modèles/qwen --return-sampling-mask --enable-batch-sharded-sampling --config replay.yaml --enable-scale-out\n"
)
REPLAY_YAML = 'logits_processors: ["my_pkg.processors:Bias"]\n'
UNICODE_MODE = "vllm serve m --return-sampling-mask --logprobs-mode procéssed_logprobs --enable-scale-out\n"
FILES = {
    "deploy/serve.sh": SERVE,
    "deploy/replay.yaml": REPLAY_YAML,
    "launch.py": PYTHON_BAD,
    "scripts/unicode.sh": UNICODE_MODE,
    "scripts/warn.sh": SHELL_WARNING,
}
# (path, code, line, column) of every finding of FILES, and which fixes `--fix` applies alone.
EXPECTED = {
    ("deploy/serve.sh", "RPL003", 2, 26),
    ("deploy/serve.sh", "RPL006", 2, 49),
    ("deploy/replay.yaml", "RPL001", 1, 1),
    ("launch.py", "RPL003", 2, 16),
    ("launch.py", "RPL001", 2, 43),
    ("scripts/unicode.sh", "RPL201", 1, 53),
    ("scripts/warn.sh", "RPL003", 2, 3),
    ("scripts/warn.sh", "RPL203", 2, 26),
}


def replaylint(cwd: Path, *args: str) -> tuple[int, str, str]:
    return run_cli(cwd, "check", "--no-cache", *args)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding FILES; the checks run from its `deploy` folder on the whole tree."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to find the repository's top level")
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    write(root, FILES)
    return root


def report(repo: Path, name: str, *args: str) -> str:
    status, out, err = replaylint(repo / "deploy", "--output-format", name, *args, "..")
    assert status == 1, err
    return out


def validate(document: object, schema_name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / schema_name).read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def ruff(tmp_path: Path, name: str, *options: str) -> str:
    """ruff's output in format `name` for an unused import (a safe fix) and an unused variable
    (an unsafe one) in `sub/a.py`, run at the top of its folder."""
    ruff_bin = pytest.importorskip("ruff.__main__").find_ruff_bin()
    root = tmp_path / "ruff"
    write(root, {"sub/a.py": 'import os\n\n\ndef f():\n    x = "é"\n'})
    command = [ruff_bin, "check", "--no-cache", "--isolated", "--select", "F401,F841", "--output-format", name, *options, "."]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}).stdout


def keys(value: object) -> object:
    """The shape of a JSON value: its keys, recursively, with a list as its first item's shape."""
    if isinstance(value, dict):
        return {key: keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [keys(value[0])] if value else []
    return type(value).__name__


def utf8_column(text: str, line: int, column: int) -> int:
    return len(LineIndex("", text).line_text(line)[: column - 1].encode("utf-8")) + 1


# gitlab


def test_gitlab_is_a_valid_code_quality_report_with_repository_paths(repo: Path) -> None:
    issues = json.loads(report(repo, "gitlab"))
    validate(issues, "gitlab-code-quality-schema.json")
    places = {
        (i["location"]["path"], i["check_name"], i["location"]["positions"]["begin"]["line"], i["location"]["positions"]["begin"]["column"])
        for i in issues
    }
    assert places == EXPECTED and len(issues) == len(EXPECTED)
    for item in issues:
        assert item["description"].startswith(f"{item['check_name']}: ")  # GitLab shows only the description
        assert item["severity"] == ("minor" if item["check_name"] == "RPL203" else "major")
    assert len({item["fingerprint"] for item in issues}) == len(issues)  # GitLab merges equal fingerprints
    unicode = next(item for item in issues if item["check_name"] == "RPL201")
    assert "procéssed_logprobs" in unicode["description"]


def test_gitlab_has_ruffs_shape(repo: Path, tmp_path: Path) -> None:
    ours = json.loads(report(repo, "gitlab"))
    theirs = json.loads(ruff(tmp_path, "gitlab"))
    assert keys(ours[0]) == keys(theirs[0])
    assert list(ours[0]) == list(theirs[0])
    assert theirs[0]["description"].startswith(theirs[0]["check_name"] + ": ")


def test_gitlab_fingerprints_survive_moved_lines_and_another_release(repo: Path) -> None:
    def fingerprints(*args: str) -> dict[tuple[str, str], str]:
        return {(i["location"]["path"], i["check_name"]): i["fingerprint"] for i in json.loads(report(repo, "gitlab", *args))}

    before = fingerprints()
    (repo / "launch.py").write_text("# moved down\n\n" + PYTHON_BAD, encoding="utf-8")
    assert fingerprints("--target-vllm", "0.31") == before
    (repo / "launch.py").write_text(PYTHON_BAD.replace("'m'", "'other'"), encoding="utf-8")
    after = fingerprints()
    assert after[("launch.py", "RPL003")] != before[("launch.py", "RPL003")]
    assert after[("deploy/serve.sh", "RPL003")] == before[("deploy/serve.sh", "RPL003")]


# rdjson


def apply_suggestions(text: str, diagnostic: dict) -> str:
    """The file as reviewdog leaves it once a reviewer commits the suggestions (UTF-8 columns)."""
    data = text.encode("utf-8")
    starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    for suggestion in sorted(
        diagnostic["suggestions"], key=lambda s: (s["range"]["start"]["line"], s["range"]["start"]["column"]), reverse=True
    ):
        start, end = suggestion["range"]["start"], suggestion["range"]["end"]
        begin = starts[start["line"] - 1] + start["column"] - 1
        stop = starts[end["line"] - 1] + end["column"] - 1
        data = data[:begin] + suggestion["text"].encode("utf-8") + data[stop:]
    return data.decode("utf-8")


def test_rdjson_is_valid_with_utf8_columns_and_committable_suggestions(repo: Path) -> None:
    result = json.loads(report(repo, "rdjson"))
    validate(result, "reviewdog-rdjson-schema.json")
    diagnostics = result["diagnostics"]
    assert result["source"]["name"] == "replaylint" and len(diagnostics) == len(EXPECTED)
    by_place = {(d["location"]["path"], d["code"]["value"]): d for d in diagnostics}
    assert {(path, code) for path, code, _, _ in EXPECTED} == set(by_place)
    serve = by_place[("deploy/serve.sh", "RPL003")]["location"]["range"]["start"]
    assert serve == {"line": 2, "column": utf8_column(SERVE, 2, 26)} and serve["column"] == 27  # "è" is two bytes
    assert by_place[("scripts/warn.sh", "RPL203")]["severity"] == "WARNING"
    assert by_place[("launch.py", "RPL001")]["severity"] == "ERROR"
    assert by_place[("launch.py", "RPL001")]["code"]["url"].endswith("/RPL001.md")
    assert "procéssed_logprobs" in by_place[("scripts/unicode.sh", "RPL201")]["message"]

    safe, unsafe = by_place[("deploy/serve.sh", "RPL003")], by_place[("deploy/serve.sh", "RPL006")]
    assert safe["message"].splitlines()[-1].startswith("help: ") and "(unsafe fix)" not in safe["message"]
    assert unsafe["message"].endswith("(unsafe fix)")
    fixed_safe = apply_suggestions(SERVE, safe)
    assert "--return-sampling-mask --logprobs-mode processed_logprobs" in fixed_safe and "Démarrage" in fixed_safe
    assert "--enable-batch-sharded-sampling" not in apply_suggestions(SERVE, unsafe)
    in_config = by_place[("deploy/replay.yaml", "RPL001")]  # the launch is serve.sh; the fix edits the YAML
    assert "logits_processors" not in apply_suggestions(REPLAY_YAML, in_config)


# An independent reading of reviewdog's format: the validator of the UmbrellaDocs rdformat action,
# from npm (.ci/run installs it where npm is; Apache-2.0), strict and with no extra fields allowed.
RDFORMAT_VALIDATOR = REPO / "bench/.cache/npm/node_modules/@umbrelladocs/rdformat-validator/bin/rdformat-validator.js"


def test_rdjson_passes_the_rdformat_validator(repo: Path, tmp_path: Path) -> None:
    if shutil.which("node") is None or not RDFORMAT_VALIDATOR.is_file():
        pytest.skip("no node, or no @umbrelladocs/rdformat-validator under bench/.cache/npm (.ci/run installs it)")
    (tmp_path / "report.json").write_text(report(repo, "rdjson"), encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"diagnostics": [{"location": {"path": "a"}, "severity": "FATAL"}]}', encoding="utf-8")
    for name, valid in (("report.json", True), ("broken.json", False)):  # the validator is not a pass-through
        completed = subprocess.run(
            ["node", str(RDFORMAT_VALIDATOR), "--strict", "--no-extra-fields", str(tmp_path / name)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (completed.returncode == 0) is valid, completed.stdout + completed.stderr


def test_rdjson_suggestions_are_the_edits_of_the_checker(tmp_path: Path) -> None:
    run = check(tmp_path, {"launch.py": PYTHON_BAD})
    diagnostics = json.loads(render("rdjson", run))["diagnostics"]
    for finding, diagnostic in zip(run.findings, diagnostics):
        expected, _ = apply_edits(PYTHON_BAD, list(finding.edits))
        assert apply_suggestions(PYTHON_BAD, diagnostic) == expected


def test_rdjson_gives_no_suggestion_for_a_fix_in_another_file(tmp_path: Path) -> None:
    """A suggestion has no path: a fix that edits another file is not offered as one."""
    run = check(tmp_path, {"launch.py": PYTHON_BAD})
    finding = run.findings[0]
    elsewhere = dataclasses.replace(finding.edits[0], span=dataclasses.replace(finding.edits[0].span, path=str(tmp_path / "other.yaml")))
    run.findings[0] = dataclasses.replace(finding, edits=(elsewhere,))
    diagnostic = json.loads(render("rdjson", run))["diagnostics"][0]
    assert "suggestions" not in diagnostic and diagnostic["message"].splitlines()[-1].startswith("help: ")


def test_rdjson_has_ruffs_names(repo: Path, tmp_path: Path) -> None:
    ours = json.loads(report(repo, "rdjson"))
    theirs = json.loads(ruff(tmp_path, "rdjson"))
    ours_fixed = next(d for d in ours["diagnostics"] if "suggestions" in d)
    theirs_fixed = next(d for d in theirs["diagnostics"] if "suggestions" in d)
    assert keys(theirs["source"]) == keys(ours["source"])
    shared = {key: keys(value) for key, value in ours_fixed.items() if key != "severity"}
    assert shared == keys(theirs_fixed)


# azure

AZURE = re.compile(
    r"##vso\[task\.logissue type=(error|warning);sourcepath=([^;\]]+);linenumber=(\d+);columnnumber=(\d+);code=([^;\]]+);\](.*)"
)


def test_azure_logs_one_issue_per_finding(repo: Path) -> None:
    lines = report(repo, "azure").splitlines()
    matches = [AZURE.fullmatch(line) for line in lines]
    assert all(matches), lines
    assert {(m[2], m[5], int(m[3]), int(m[4])) for m in matches} == EXPECTED and len(lines) == len(EXPECTED)
    kinds = {m[5]: m[1] for m in matches}
    assert kinds["RPL203"] == "warning" and kinds["RPL006"] == "error"
    messages = {(m[2], m[5]): m[6] for m in matches}
    assert messages[("deploy/serve.sh", "RPL006")].endswith("%0Ahelp: Remove batch-sharded sampling (unsafe fix)")
    assert "procéssed_logprobs" in messages[("scripts/unicode.sh", "RPL201")]


def test_azure_escapes_what_would_end_the_command(tmp_path: Path) -> None:
    run = check(tmp_path, {"odd;na]me%.sh": UNICODE_MODE})
    run.findings = [dataclasses.replace(run.findings[0], words=Message("100% sure; a]b\r\nnext"))]
    line = render("azure", run).splitlines()[0]
    assert "sourcepath=odd%3Bna%5Dme%AZP25.sh;" in line
    assert line.endswith("]100%AZP25 sure; a]b%0D%0Anext") and "\n" not in line


def test_azure_has_ruffs_layout(repo: Path, tmp_path: Path) -> None:
    theirs = ruff(tmp_path, "azure").splitlines()[0]
    assert AZURE.fullmatch(theirs), theirs  # the same properties in the same order
    assert render("azure", Run(findings=[])) == ""


# pylint


def test_pylint_lines_are_rufs_path_line_code_message(repo: Path, tmp_path: Path) -> None:
    pattern = re.compile(r"([^:]+):(\d+): \[(RPL\d{3})\] (.+)")
    lines = report(repo, "pylint").splitlines()
    matches = [pattern.fullmatch(line) for line in lines]
    assert all(matches) and len(lines) == len(EXPECTED)
    assert {(os.path.normpath(os.path.join("deploy", m[1])), m[3], int(m[2])) for m in matches} == {
        (p, c, line) for p, c, line, _ in EXPECTED
    }
    assert re.fullmatch(r"sub/a\.py:\d+: \[F\d+\] .+", ruff(tmp_path, "pylint").splitlines()[0])


def test_pylint_keeps_a_multi_line_message_on_one_line(tmp_path: Path) -> None:
    run = check(tmp_path, {"serve.sh": UNICODE_MODE})
    run.findings = [dataclasses.replace(run.findings[0], words=Message("first\nsecond"))]
    assert render("pylint", run) == f"{run.findings[0].span.path}:1: [RPL201] first second\n"


# grouped


def test_grouped_lists_each_file_once_with_aligned_places(tmp_path: Path) -> None:
    run = check(tmp_path, {"b.py": PYTHON_BAD, "a.sh": SHELL_WARNING, "c.py": "from vllm import LLM\n" + "\n" * 9 + PYTHON_BAD})
    lines = render("grouped", run).splitlines()
    headers = [line for line in lines if line.endswith(":") and not line.startswith(" ")]
    assert headers == [f"{tmp_path / name}:" for name in ("a.sh", "b.py", "c.py")]
    block = lines[lines.index(f"{tmp_path / 'c.py'}:") + 1 :]
    assert block[:2] == [
        f"  12:16 RPL003 [*] {next(f.message for f in run.findings if f.code == 'RPL003' and f.span.start_line == 12)}",
        f"  12:43 RPL001 {next(f.message for f in run.findings if f.code == 'RPL001' and f.span.start_line == 12)}",
    ]
    assert block[2] == ""
    a_block = lines[1:3]
    assert a_block[0].startswith("  2:3  RPL003 [*] ") and a_block[1].startswith("  2:26 RPL203 ")
    assert lines[-2:] == render("concise", run).splitlines()[-2:]  # the same summary


def test_grouped_has_ruffs_layout(tmp_path: Path) -> None:
    theirs = ruff(tmp_path, "grouped").splitlines()
    assert theirs[0] == "sub/a.py:" and re.fullmatch(r"  \d:\d{1,2} F\d+ .+", theirs[1]) and "" in theirs
    assert render("grouped", Run(findings=[])) == "All checks passed!\n"


# every format


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_renders_a_clean_run(name: str, tmp_path: Path) -> None:
    text = render(name, Run(findings=[], root=str(tmp_path), files_checked=2))
    if name in ("json", "gitlab"):
        assert json.loads(text) == []
    elif name == "rdjson":
        assert json.loads(text)["diagnostics"] == []
    elif name == "sarif":
        assert json.loads(text)["runs"][0]["results"] == []
    elif name in ("json-lines", "azure", "pylint"):
        assert text == ""
    else:
        assert text.endswith("\n") and "RPL" not in text


@pytest.mark.parametrize("name", ["gitlab", "rdjson", "azure"])
def test_ci_formats_stay_utf8_with_undecodable_bytes(name: str, tmp_path: Path) -> None:
    (tmp_path / "serve.sh").write_bytes(b"vllm serve m --return-sampling-mask --logprobs-mode raw\xff\n")
    run = Run(findings=list(Checker(Config()).check_file(str(tmp_path / "serve.sh")).findings), root=str(tmp_path))
    assert any("\udcff" in f.message for f in run.findings)
    output = render(name, run)
    output.encode("utf-8")
    assert "\ufffd" in (output if name == "azure" else json.dumps(json.loads(output), ensure_ascii=False))


def test_the_cli_offers_every_format(repo: Path) -> None:
    for name in ("gitlab", "rdjson", "azure", "pylint", "grouped"):
        status, out, err = replaylint(repo, "--output-format", name, "launch.py")
        assert status == 1 and out and not err, (name, err)
    status, _, err = replaylint(repo, "--output-format", "codeclimate", "launch.py")
    assert status == 2 and "codeclimate" in err


def test_the_readme_names_every_format() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("Output formats (`--output-format`") :].split("\n\n")[0]
    assert [name for name in FORMATS if f"`{name}`" not in paragraph] == []
