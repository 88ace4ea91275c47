"""The command line against a hostile tree (issue 26): a report written through a committed
symlink, staged files named like options, file names and launch lines that drive a terminal or
a CI runner, and what `--add-noqa`, `-q` and `-s` say."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .conftest import NOBODY, as_user, needs_root, replaylint

LAUNCH = "vllm serve m --return-sampling-mask --enable-scale-out\n"
FINDING = b"serve.sh:1:14: RPL003"
# A finding whose only fix is unsafe: `--fix` leaves it, `--unsafe-fixes` would rewrite the file.
SPECULATIVE = (
    'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
    '    speculative_config={"method": "mtp", "num_speculative_tokens": 1,\n'
    '                        "enable-adaptive-verification": True})\n'
)


def repository(folder: Path, files: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    for name, text in (files or {"serve.sh": LAUNCH}).items():
        (folder / name).write_text(text)
    return folder


def lines_of(output: bytes) -> list[str]:
    return output.decode("utf-8", "surrogateescape").splitlines()


# -o / --output-file


def test_a_committed_symlink_at_the_reports_name_is_replaced_not_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    project = repository(tmp_path / "project")
    (project / "replaylint.sarif").symlink_to(victim)
    completed = replaylint("check", "--no-cache", "--output-format", "sarif", "-o", "replaylint.sarif", ".", cwd=project)
    assert victim.read_text() == "keep me\n"
    report = project / "replaylint.sarif"
    assert not report.is_symlink() and json.loads(report.read_text())["runs"][0]["results"][0]["ruleId"] == "RPL003"
    assert completed.returncode == 1 and completed.stdout == b""


def test_a_symlinked_folder_inside_the_tree_is_refused_before_the_check(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    project = repository(tmp_path / "project")
    (project / "reports").symlink_to(outside)
    for written in ("reports/report.json", str(project / "reports" / "report.json")):
        completed = replaylint("check", "--no-cache", "-o", written, "--output-format", "json", ".", cwd=project)
        assert list(outside.iterdir()) == []
        assert f"{written}: goes through".encode() in completed.stderr and b"a symlink inside the checked tree" in completed.stderr
        assert completed.returncode == 2 and completed.stdout == b""


def test_a_symlinked_folder_above_the_tree_is_refused_when_the_path_climbs_back_in(tmp_path: Path) -> None:
    """`sub/../reports/x` written from the repository's top: `sub` is checked before `..` is taken."""
    outside = tmp_path / "outside"
    outside.mkdir()
    project = repository(tmp_path / "project")
    (project / "sub").symlink_to(outside / "deep", target_is_directory=True)
    (outside / "deep").mkdir()
    completed = replaylint("check", "--no-cache", "-o", "sub/../r.json", ".", cwd=project)
    assert completed.returncode == 2 and b"a symlink inside the checked tree" in completed.stderr
    assert not (outside / "r.json").exists() and not (project / "r.json").exists()


def test_a_fifo_at_the_reports_name_is_refused_without_waiting(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    os.mkfifo(project / "report.txt")
    completed = replaylint("check", "--no-cache", "-o", "report.txt", ".", cwd=project, timeout=20)
    assert b"report.txt: is not a regular file" in completed.stderr and completed.returncode == 2


def test_a_missing_folder_is_created_as_ruff_creates_it(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    completed = replaylint("check", "--no-cache", "-o", "build/reports/replaylint.txt", ".", cwd=project)
    assert (project / "build" / "reports" / "replaylint.txt").read_text().startswith("serve.sh:1:14: RPL003")
    assert completed.returncode == 1


def test_a_path_outside_the_tree_as_written_is_followed(tmp_path: Path) -> None:
    """An absolute path through a symlink outside the tree (macOS `/tmp`), `..` typed by the
    user, and a symlink outside the tree at the name (as `/dev/stdout` is): written through."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    (tmp_path / "c.txt").symlink_to(real / "c-target.txt")
    project = repository(tmp_path / "project")
    absolute = replaylint("check", "--no-cache", "-o", str(tmp_path / "alias" / "a.txt"), ".", cwd=project)
    climbed = replaylint("check", "--no-cache", "-o", "../b.txt", ".", cwd=project)
    linked = replaylint("check", "--no-cache", "-o", "../c.txt", ".", cwd=project)
    assert (real / "a.txt").read_text().startswith("serve.sh:1:14: RPL003") and (tmp_path / "b.txt").exists()
    assert (tmp_path / "c.txt").is_symlink() and (real / "c-target.txt").read_text().startswith("serve.sh:1:14: RPL003")
    assert absolute.returncode == climbed.returncode == linked.returncode == 1


def test_a_report_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    (project / "report.txt").write_text("old\n")
    (project / "report.txt").chmod(0o640)
    replaylint("check", "--no-cache", "-o", "report.txt", ".", cwd=project)
    assert (project / "report.txt").stat().st_mode & 0o777 == 0o640
    assert [name for name in os.listdir(project) if name.startswith(".replaylint-report-")] == []


@needs_root
def test_in_a_folder_this_user_cannot_write_a_report_file_is_written_in_place_and_a_symlink_refused(public_tmp: Path) -> None:
    victim = public_tmp / "victim"
    victim.write_text("keep me\n")
    victim.chmod(0o666)
    (public_tmp / "serve.sh").write_text(LAUNCH)
    (public_tmp / "linked.txt").symlink_to(victim)
    (public_tmp / "report.txt").write_text("old\n")
    (public_tmp / "report.txt").chmod(0o666)

    def check(report: str) -> int:
        from replaylint.cli import main as cli

        os.chdir(public_tmp)
        return cli.main(["check", "--no-cache", "-o", report, "serve.sh"])

    assert as_user(NOBODY, lambda: check("report.txt")) == 1
    assert (public_tmp / "report.txt").read_text().startswith("serve.sh:1:14: RPL003")
    assert as_user(NOBODY, lambda: check("linked.txt")) == 2
    assert victim.read_text() == "keep me\n"


# The pre-commit hook: staged files named like options

OPTION_NAMES = ["--exit-zero", "--ignore=ALL", "--add-noqa", "--fix", "--unsafe-fixes", "-s", "-o", "-"]


@pytest.mark.parametrize("entry", [["--hook"], ["--hook=fix"]])
def test_staged_files_named_like_options_are_files_to_the_hook(tmp_path: Path, entry: list[str]) -> None:
    """What pre-commit runs: the entry, then the staged files, in its order (sorted names)."""
    project = repository(tmp_path / "project", {"rollout.py": SPECULATIVE, **{name: "x\n" for name in OPTION_NAMES}})
    before = {path.name: path.read_bytes() for path in project.iterdir() if path.is_file()}
    completed = replaylint("check", *entry, "--no-cache", *sorted([*OPTION_NAMES, "rollout.py"]), cwd=project)
    assert completed.returncode == 1, completed.stderr.decode()
    assert b"rollout.py:3:5: RPL002" in completed.stdout
    assert {path.name: path.read_bytes() for path in project.iterdir() if path.is_file()} == before


def test_the_users_args_still_count_before_the_staged_files(tmp_path: Path) -> None:
    """`args: [--ignore, RPL003]`, and `args: [--exit-zero]` while a staged file has that name too."""
    project = repository(tmp_path / "project", {"serve.sh": LAUNCH, "--exit-zero": "x\n"})
    ignored = replaylint("check", "--hook", "--no-cache", "--ignore", "RPL003", "--exit-zero", "serve.sh", cwd=project)
    assert ignored.returncode == 0 and FINDING not in ignored.stdout
    exit_zero = replaylint("check", "--hook", "--no-cache", "--exit-zero", "--exit-zero", "serve.sh", cwd=project)
    assert exit_zero.returncode == 0 and FINDING in exit_zero.stdout


def test_hook_out_of_place_is_a_usage_error(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    completed = replaylint("check", "--force-exclude", "--hook", "serve.sh", cwd=project)
    assert completed.returncode == 2 and b"it comes right after `check`" in completed.stderr


# Names and text escaped wherever they are printed

STOP = "a\n::stop-commands::pwned\n.sh"
AZURE = "##vso[task.setvariable variable=X]y.sh"


def test_a_name_with_line_breaks_cannot_start_a_runner_command_in_a_note(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    (project / STOP).symlink_to("/etc/passwd")
    completed = replaylint("check", "--no-cache", ".", cwd=project)
    assert "replaylint: note: a\\n::stop-commands::pwned\\n.sh: skipped" in completed.stderr.decode()
    assert all(line.startswith("replaylint: ") for line in lines_of(completed.stderr))
    assert completed.returncode == 1


@pytest.mark.parametrize("output_format", ["full", "concise", "grouped", "pylint"])
def test_names_and_launch_lines_are_escaped_in_the_text_formats(tmp_path: Path, output_format: str) -> None:
    launch = "vllm serve m --return-sampling-mask  # \x1b[2J\u202e ##vso[task.complete result=Succeeded]\n"
    names = [STOP, AZURE, "::error::x.sh", "esc\x1b[31m.sh"]
    project = repository(tmp_path / "project", dict.fromkeys(names, launch))
    completed = replaylint("check", "--no-cache", "--output-format", output_format, ".", cwd=project)
    output = completed.stdout.decode()
    assert "\x1b" not in output and "\u202e" not in output and "##vso[" not in output
    assert not any(line.lstrip(" ").startswith("::") for line in output.splitlines())
    assert "a\\n::stop-commands::pwned\\n.sh:" in output and "esc\\x1b[31m.sh:" in output and "./::error::x.sh:" in output
    assert "#\\x23vso[task.setvariable variable=X]y.sh:" in output
    assert output.count("RPL003") >= 4 and completed.returncode == 1


def test_the_underline_stays_under_the_option_in_an_escaped_line(tmp_path: Path) -> None:
    project = repository(tmp_path / "project", {"serve.sh": "A=\x1b\x1b vllm serve m --return-sampling-mask\n"})
    output = replaylint("check", "--no-cache", ".", cwd=project).stdout.decode().splitlines()
    line = next(text for text in output if text.startswith("1 | "))
    underline = output[output.index(line) + 1]
    assert line == "1 | A=\\x1b\\x1b vllm serve m --return-sampling-mask"
    assert underline.index("^") == line.index("--return-sampling-mask")


def test_github_annotations_escape_names_per_the_workflow_command_spec(tmp_path: Path) -> None:
    project = repository(tmp_path / "project", {STOP: LAUNCH, "e\x1b,x:y.sh": LAUNCH})
    completed = replaylint("check", "--no-cache", "--output-format", "github", ".", cwd=project)
    lines = lines_of(completed.stdout)
    assert all(line.startswith(("::error ", "::warning ", "replaylint: ")) for line in lines), lines
    assert any("file=a%0A%3A%3Astop-commands%3A%3Apwned%0A.sh," in line for line in lines)
    assert any("file=e\\x1b%2Cx%3Ay.sh," in line for line in lines)
    assert "\x1b" not in completed.stdout.decode()


def test_azure_log_issues_escape_names_per_the_task_library(tmp_path: Path) -> None:
    project = repository(tmp_path / "project", {"a;b]\n##vso[x]\x1b.sh": LAUNCH})
    completed = replaylint("check", "--no-cache", "--output-format", "azure", ".", cwd=project)
    [line] = lines_of(completed.stdout)
    assert line.startswith("##vso[task.logissue type=error;sourcepath=a%3Bb%5D%0A##vso[x%5D\\x1b.sh;linenumber=1;")
    assert line.count("]") == 1  # the command's own: nothing from the name ends it


def test_a_diff_quotes_a_name_as_git_does_and_git_applies_it(tmp_path: Path) -> None:
    name = "a\n::stop-commands::x\n\u00e9.sh"
    project = repository(tmp_path / "project", {name: LAUNCH})
    completed = replaylint("check", "--no-cache", "--diff", ".", cwd=project)
    lines = lines_of(completed.stdout)
    assert lines[:2] == ['--- "a/a\\n::stop-commands::x\\n\u00e9.sh"', '+++ "b/a\\n::stop-commands::x\\n\u00e9.sh"']
    (project / "fix.diff").write_bytes(completed.stdout)
    applied = subprocess.run(["git", "apply", "fix.diff"], cwd=project, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    assert (project / name).read_text() == "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


# --add-noqa, -q and -s


def test_add_noqa_that_cannot_write_says_so_and_fails(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    (project / "link.sh").symlink_to("serve.sh")
    completed = replaylint("check", "--no-cache", "--add-noqa", "link.sh", cwd=project)
    stderr = completed.stderr.decode()
    assert "replaylint: error: link.sh: not fixed, it is a symlink" in stderr and "Added 0 noqa directives." in stderr
    assert (project / "serve.sh").read_text() == LAUNCH and completed.returncode == 2


@pytest.mark.parametrize("flag", ["-q", "-s"])
def test_quiet_and_silent_print_no_cache_note(tmp_path: Path, flag: str) -> None:
    project = repository(tmp_path / "project")
    (project / "not-a-folder").write_text("x\n")
    loud = replaylint("check", "--cache-dir", "not-a-folder", ".", cwd=project)
    quiet = replaylint("check", flag, "--cache-dir", "not-a-folder", ".", cwd=project)
    assert b"the result cache is not used" in loud.stderr
    assert quiet.stderr == b"" and quiet.returncode == loud.returncode == 1
    assert (FINDING in quiet.stdout) == (flag == "-q")
