"""A warm run of a tree where nothing changed gives the last run's report again without checking
anything (`engine.cache.last_run`); any change to what that report rested on makes the run check
as usual, with the report of the tree as it is now."""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from pathlib import Path

import pytest
from test_cache_recall_by_stat import LAUNCH, QUIET, _same_times

from replaylint.cli import check as check_command
from replaylint.cli.main import main
from replaylint.engine import cache
from replaylint.engine.cache import last_run
from replaylint.engine.cache.last_run import RUN_STORE


@pytest.fixture
def checks(monkeypatch) -> list[int]:
    """One item for each run that checked files (one whose report was not given again)."""
    ran: list[int] = []
    original = check_command.run_check

    def recording(args):
        ran.append(1)
        return original(args)

    monkeypatch.setattr(check_command, "run_check", recording)
    return ran


def report(folder: Path, *args: str) -> tuple[int, str, str]:
    """A check of `.` from `folder` in the default cache folder: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["check", *args, "."])
    finally:
        os.chdir(cwd)
    return status, out.getvalue(), err.getvalue()


def codes(folder: Path, *args: str) -> list[str]:
    status, out, _ = report(folder, "--output-format", "json", *args)
    assert status == (1 if json.loads(out) else 0)
    return sorted(finding["code"] for finding in json.loads(out))


def _project(tmp_path: Path, repository: bool = True) -> Path:
    """A small tree; a repository by default (the pins and the configuration are looked for up
    to its root: above it, the system's temporary folder changes with every other test)."""
    project = tmp_path / "project"
    (project / "deploy").mkdir(parents=True)
    if repository:
        (project / ".git").mkdir()
    (project / "plain.py").write_text("import os\n")
    (project / "deploy" / "a.py").write_text(LAUNCH)
    (project / "README.md").write_text("no frontend reads this\n")
    return project


def _warm(project: Path, *args: str) -> list[str]:
    """The findings after the runs that fill the cache and leave the report to give again."""
    found = codes(project, *args)
    assert codes(project, *args) == found
    assert (project / ".replaylint_cache" / RUN_STORE).is_file()
    return found


def test_an_unchanged_tree_gets_the_same_report_without_a_check(tmp_path: Path, settled_at_once, checks) -> None:
    project = _project(tmp_path)
    for output_format in ("full", "concise", "json"):
        first = report(project, "--output-format", output_format)
        second = report(project, "--output-format", output_format)
        checks.clear()
        again = report(project, "--output-format", output_format)
        assert again == second == first
        assert again[0] == 1 and "RPL003" in again[1]
        assert checks == []


def test_a_file_changed_in_place_with_its_size_and_time_is_checked_again(tmp_path: Path, settled_at_once, checks) -> None:
    project = _project(tmp_path)
    assert _warm(project) == ["RPL003"]
    _same_times(project / "deploy" / "a.py", QUIET)
    checks.clear()
    assert codes(project) == []
    assert checks == [1]
    _same_times(project / "plain.py", LAUNCH.replace("'m'", "'n'"))  # a file the prefilter had turned away
    assert codes(project) == ["RPL003"]


def test_a_file_added_removed_or_renamed_is_seen(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    assert _warm(project) == ["RPL003"]
    (project / "b.py").write_text(LAUNCH)
    assert codes(project) == ["RPL003", "RPL003"]
    assert codes(project) == ["RPL003", "RPL003"]
    (project / "b.py").unlink()
    assert codes(project) == ["RPL003"]
    codes(project)
    os.rename(project / "deploy" / "a.py", project / "deploy" / "a.txt")
    assert codes(project) == []
    os.rename(project / "deploy" / "a.txt", project / "deploy" / "launch.py")
    status, out, _ = report(project, "--output-format", "concise")
    assert "deploy/launch.py" in out and status == 1


def test_a_folder_added_is_walked(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    assert _warm(project) == ["RPL003"]
    (project / "more" / "inside").mkdir(parents=True)
    (project / "more" / "inside" / "serve.sh").write_text("vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n")
    assert len(codes(project)) == 2


def test_a_configuration_changed_or_added_above_the_tree_is_read(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path, repository=False)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    assert _warm(project) == ["RPL003"]
    (project / "pyproject.toml").write_text('[project]\nname = "p"\n\n[tool.replaylint]\nignore = ["RPL003"]\n')
    assert codes(project) == []
    codes(project)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    assert _warm(project) == ["RPL003"]
    (tmp_path / "replaylint.toml").write_text('ignore = ["RPL003"]\n')  # above the project: no `.git` stops the search
    assert codes(project) == []


def test_a_nested_configuration_is_read_when_it_changes(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    (project / "deploy" / "replaylint.toml").write_text("ignore = []\n")
    assert _warm(project) == ["RPL003"]
    _same_times(project / "deploy" / "replaylint.toml", 'ignore = ["RPL"]\n')
    assert codes(project) == []
    (project / "deploy" / "replaylint.toml").unlink()
    assert _warm(project) == ["RPL003"]
    (project / "deploy" / ".replaylint.toml").write_text('ignore = ["RPL003"]\n')  # added where none was
    assert codes(project) == []


def test_a_config_yaml_a_launch_reads_is_read_again_when_it_changes(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    (project / "deploy" / "a.py").unlink()
    (project / "serve.sh").write_text("vllm serve m --config replay.yaml --enable-scale-out\n")
    replay = project / "replay.yaml"
    replay.write_text("return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n")
    assert codes(project) == []
    assert _warm(project) == []
    _same_times(replay, "return-sampling-mask: true\n#ogprobs-mode: processed_logprobs\n")
    assert codes(project) == ["RPL003"]


def test_a_tree_written_within_the_clock_step_leaves_no_report_to_give_again(tmp_path: Path, checks) -> None:
    """A file system that keeps whole seconds (FAT keeps two): a file written in the clock step
    of the run, rewritten in the same step, would keep its stat, so no report is left to give
    again (times on whole seconds, a moment ahead, stand for such a clock)."""
    project = _project(tmp_path)
    whole_second = (time.time_ns() // 1_000_000_000 + 5) * 1_000_000_000
    for path in project.rglob("*.py"):
        os.utime(path, ns=(whole_second, whole_second))
    for _ in range(2):
        assert codes(project) == ["RPL003"]
    assert not (project / ".replaylint_cache" / RUN_STORE).exists()
    assert checks == [1, 1]


def test_a_stat_is_settled_after_a_clock_step_of_its_file_system() -> None:
    """Times with digits below 10 ms are a fine clock's (kernel ticks): settled a tenth of a
    second later; times on whole seconds may be a coarse clock's: two seconds."""
    results = cache.ResultCache("unused", "fingerprint")
    now = results._started
    fine, coarse = now - 150_000_000 + 1_234_567, (now // 10**9 - 1) * 10**9
    assert results.settled((1, fine, fine, 1))
    assert not results.settled((1, now - 50_000_000 + 1_234_567, fine, 1))
    assert not results.settled((1, coarse, coarse, 1))
    assert not results.settled((1, coarse, fine, 1))  # a mtime set by `touch -d` or `tar` to a whole second
    assert results.settled((1, coarse - 2 * 10**9, coarse - 2 * 10**9, 1))


def test_other_words_or_environment_are_not_given_this_report(tmp_path: Path, settled_at_once, monkeypatch) -> None:
    project = _project(tmp_path)
    _warm(project)
    assert codes(project, "--ignore", "RPL003") == []
    _warm(project)
    monkeypatch.setenv("REPLAYLINT_OUTPUT_FORMAT", "concise")
    status, out, _ = report(project)
    assert status == 1 and "deploy/a.py:2:" in out and "RPL003" in out
    assert report(project, "--quiet")[2] == ""


def test_a_report_said_with_notes_is_not_given_again(tmp_path: Path, settled_at_once, checks) -> None:
    """What a run says on stderr (here: a file above the size limit, skipped) is said by each
    run: the report alone is not given again."""
    project = _project(tmp_path)
    (project / "big.sh").write_text("echo hi\n" * 1_200_000)
    for _ in range(3):
        status, out, err = report(project, "--output-format", "concise")
        assert status == 1 and "RPL003" in out and "big.sh: skipped" in err
    assert checks == [1, 1, 1]


def test_a_forged_report_is_not_given(tmp_path: Path, settled_at_once, checks) -> None:
    project = _project(tmp_path)
    _warm(project)
    stored = project / ".replaylint_cache" / RUN_STORE
    mac, _, body = stored.read_bytes().partition(b"\n")
    value = json.loads(body)
    value["report"], value["status"] = "[]", 0
    stored.write_bytes(mac + b"\n" + json.dumps(value).encode())
    checks.clear()
    assert codes(project) == ["RPL003"]
    assert checks == [1]


def test_clean_removes_the_report_given_again(tmp_path: Path, settled_at_once) -> None:
    project = _project(tmp_path)
    _warm(project)
    cwd = os.getcwd()
    os.chdir(project)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["clean"]) == 0
    finally:
        os.chdir(cwd)
    assert not (project / ".replaylint_cache").exists()


def test_a_client_s_config_in_a_tree_that_starts_a_replay_server_is_read_again(tmp_path: Path, settled_at_once, checks) -> None:
    """A tree that starts a replay server ties the clients of other files to it: the files a
    client's command reads (a `--config` YAML of a file the prefilter turned away) are kept too."""
    project = _project(tmp_path)
    (project / "deploy" / "a.py").unlink()
    (project / "requirements.txt").write_text("trl==1.16.0\n")
    (project / "serve.sh").write_text("#!/bin/bash\ntrl vllm-serve --model Qwen/Qwen3-8B --return-sampling-mask --port 8001\n")
    (project / "train.sh").write_text("#!/bin/bash\ntrl grpo --config grpo.yaml\n")
    grpo = project / "grpo.yaml"
    grpo.write_text("use_vllm: true\nvllm_mode: server\ntop_k: 50\nrepetition_penalty: 1.0\nvllm_server_port: 8001\n")
    assert _warm(project, "--target-vllm", "0.34.0") == ["RPL301"]
    checks.clear()
    assert codes(project, "--target-vllm", "0.34.0") == ["RPL301"]
    assert checks == []
    _same_times(grpo, "use_vllm: true\nvllm_mode: server\ntop_k: 50\nrepetition_penalty: 1.2\nvllm_server_port: 8001\n")
    assert codes(project, "--target-vllm", "0.34.0") == ["RPL301", "RPL302"]


@pytest.mark.parametrize("cores", [{0, 1}, {0}])
def test_a_change_in_any_chunk_of_the_stats_is_seen(tmp_path: Path, settled_at_once, monkeypatch, cores: set) -> None:
    """The kept stats are compared by chunks, every other one by a forked process (one machine
    core: all here); a file changed in the first folder or the last is seen."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cores)
    project = _project(tmp_path)
    monkeypatch.setattr(last_run, "_CHUNK_PATHS", 2)
    for number in range(6):
        (project / f"part{number}").mkdir()
        (project / f"part{number}" / "run.py").write_text(QUIET)
    assert _warm(project) == ["RPL003"]
    _same_times(project / "part0" / "run.py", LAUNCH)
    assert codes(project) == ["RPL003", "RPL003"]
    assert codes(project) == ["RPL003", "RPL003"]
    _same_times(project / "part5" / "run.py", LAUNCH)
    assert codes(project) == ["RPL003", "RPL003", "RPL003"]


def test_a_report_given_again_imports_no_checker(tmp_path: Path) -> None:
    """The run that gives the report again imports neither the checker, the frontends nor
    `typing` and `dataclasses` (a quarter of a warm run's time before)."""
    import subprocess
    import sys

    project = _project(tmp_path)
    command = [sys.executable, "-X", "importtime", "-c", "import sys; from replaylint.cli.main import main; sys.exit(main())", "check", "."]
    runs = []
    for _ in range(3):
        time.sleep(0.2)  # the stats settle (a fine clock's step): the files', the cache folder's creation
        runs.append(subprocess.run(command, cwd=project, capture_output=True, text=True))
    assert [run.returncode for run in runs] == [1, 1, 1]
    assert runs[0].stdout == runs[2].stdout and "RPL003" in runs[2].stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in runs[2].stderr.splitlines() if line.startswith("import time:")}
    assert "replaylint.engine.cache.last_run" in imported
    assert not imported & {"replaylint.engine.checker", "replaylint.frontends", "typing", "dataclasses", "json"}
    assert "replaylint.engine.checker" in {line.rsplit("|", 1)[-1].strip() for line in runs[0].stderr.splitlines()}
