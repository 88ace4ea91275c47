"""Budgets that cover parsing (issue 26, items 4, 7 and 12; issue 31, item 4).

Before: tree-sitter-bash's error recovery took 2.4 GB on 30 KB of `a|a|...|` (a segfault under
a memory cap) and 108 s on 160 KB of `(a)(a)...`, outside every budget; an 8 MiB shell file
took 3.45 GB and an 8 MiB YAML file 2.53 GB, since the memory bound started after parsing; a
value doubled past 4,096 pieces made its launch open-ended silently; 1 MB of CI code ran past
the deadline before its last launch. Each case runs replaylint in its own process, with the
file's budget lowered (`Checker.budget`) so that it ends in seconds and a few hundred MB: the
answer is the launch's finding or RPL902, never a crash, a traceback or a silent pass.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.readers.shell import grammar

LAUNCH = "vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out\n"
MiB = 1 << 20
# A run of the engine in its own process, with each file's budget given as JSON.
RUN = """
import json, sys
from replaylint.run import scheduler
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
checker = Checker(Config())
checker.budget = json.loads(sys.argv[1])
workers = int(sys.argv[2]) if sys.argv[2] != "-" else None
for result in scheduler.run_checks(sys.argv[3:], checker.config, checker, workers=workers):
    print(json.dumps([result.path, [[f.code, f.span.start_line, f.message] for f in result.findings], result.internal_error]))
"""


def run(tmp_path: Path, budget: dict, *files: str, workers: int | None = None, timeout: float = 60) -> dict[str, list]:
    """Each file's findings as [code, line, message], from a run in a separate process."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(budget), str(workers) if workers else "-", *files],
        cwd=tmp_path,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    results = {}
    for line in done.stdout.decode().splitlines():
        path, found, internal_error = json.loads(line)
        assert internal_error is None, internal_error
        results[path] = found
    return results


def messages(found: list) -> list[str]:
    return [f"{code} {message}" for code, _, message in found]


# -- the bash parser ----------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_error_recovery_past_the_memory_bound_is_rpl902_and_the_run_goes_on(tmp_path: Path) -> None:
    # 30 KB: 2.4 GB in tree-sitter's recovery at the end of the file; here the bound is 64 MiB
    (tmp_path / "pipes.sh").write_text("#!/bin/bash\n" + LAUNCH + "a|" * 15_000 + "\n")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\n" + LAUNCH)
    found = run(tmp_path, {"memory": 64 * MiB}, "pipes.sh", "serve.sh")
    assert messages(found["pipes.sh"]) == [
        "RPL902 file not fully analysed: the bash parser needs more than the 64 MiB of memory one file may take"
    ]
    assert [code for code, _, _ in found["serve.sh"]] == ["RPL003"]


@pytest.mark.timeout(60)
def test_error_recovery_past_the_deadline_is_rpl902(tmp_path: Path) -> None:
    # 60 KB of `(a)`: several seconds of recovery (160 KB took 108 s); here the deadline is 1 s
    (tmp_path / "parens.sh").write_text("#!/bin/bash\n" + LAUNCH + "(a)" * 20_000 + "\n")
    started = time.monotonic()
    found = run(tmp_path, {"seconds": 1}, "parens.sh")
    assert messages(found["parens.sh"]) == ["RPL902 file not fully analysed: the bash parser takes longer than the 1 s one file may take"]
    assert time.monotonic() - started < 20


@pytest.mark.timeout(60)
def test_a_script_of_too_many_tokens_is_rpl902_before_it_is_parsed(tmp_path: Path) -> None:
    # 8 MiB of `a` lines took 4 GB and 22 s; a token costs a unit, charged before the parse
    (tmp_path / "lines.sh").write_text("#!/bin/bash\n" + LAUNCH + "a\n" * 100_000)
    found = run(tmp_path, {"work": 150_000}, "lines.sh")
    assert found["lines.sh"] == [["RPL902", 1, "file not fully analysed: it needs more work than the 150,000 units one file may take"]]


@pytest.mark.timeout(60)
def test_a_nested_script_is_parsed_within_the_same_budget(tmp_path: Path) -> None:
    # the `bash -c` string is parsed too: its error recovery is bounded like the file's
    (tmp_path / "nested.sh").write_text("#!/bin/bash\n" + LAUNCH + "bash -c '" + "a|" * 15_000 + "'\n")
    found = run(tmp_path, {"memory": 64 * MiB}, "nested.sh")
    assert [code for code, _, _ in found["nested.sh"]] == ["RPL902"]
    assert "the bash parser needs more than the 64 MiB" in found["nested.sh"][0][2]


@pytest.mark.timeout(60)
def test_the_trial_parse_works_without_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    # where fork is not safe (threads, macOS) the trial runs in a fresh interpreter
    monkeypatch.setattr(grammar, "_can_fork", lambda: False)
    checker = Checker(Config())
    checker.budget = {"memory": 64 * MiB}
    ordinary = "#!/bin/bash\n" + "echo building step $STEP && make -j4 all\n" * 200 + LAUNCH  # 8 KB: past the trial size
    assert [f.code for f in checker.check_text("serve.sh", ordinary, "shell").findings] == ["RPL003"]
    hostile = checker.check_text("pipes.sh", "#!/bin/bash\n" + LAUNCH + "a|" * 15_000 + "\n", "shell")
    assert [f.code for f in hostile.findings] == ["RPL902"]


@pytest.mark.timeout(60)
def test_a_budget_without_a_deadline_still_parses() -> None:
    # the editor's tests lift every bound: a wait of 10**9 s overflowed poll()
    checker = Checker(Config())
    checker.budget = {"work": 10**12, "seconds": 10**9, "memory": 1 << 40}
    ordinary = "#!/bin/bash\n" + "echo building step $STEP && make -j4 all\n" * 200 + LAUNCH
    assert [f.code for f in checker.check_text("serve.sh", ordinary, "shell").findings] == ["RPL003"]


# -- values past the interpreter's limit -------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_value_past_the_piece_limit_is_never_a_silent_pass(tmp_path: Path) -> None:
    spaces = 'S=" "\n' + 'S="$S$S"\n' * 13  # 8,192 pieces of one origin: joined, the launch stays exact
    (tmp_path / "spaces.sh").write_text("#!/bin/bash\n" + spaces + "vllm serve m $S --return-sampling-mask --enable-scale-out\n")
    flags = 'ARGS="--enforce-eager"\n' + 'ARGS="$ARGS $ARGS"\n' * 13  # pieces that do not join
    (tmp_path / "flags.sh").write_text("#!/bin/bash\n" + flags + "vllm serve m $ARGS --return-sampling-mask --enable-scale-out\n")
    found = run(tmp_path, {}, "spaces.sh", "flags.sh")
    assert [code for code, _, _ in found["spaces.sh"]] == ["RPL003"]
    assert found["flags.sh"] == [["RPL902", 14, "file not fully analysed: a value of more than 4,096 pieces is not followed"]]


@pytest.mark.timeout(60)
def test_appending_to_a_long_value_is_charged_piece_by_piece(tmp_path: Path) -> None:
    # 3,000 appends of a space read 4.5 million pieces (20 s); statements and words alone cost
    # 300,000 units, so only the pieces' charge stops it (5,000 appends ran past the deadline)
    (tmp_path / "appends.sh").write_text("#!/bin/bash\nS=''\n" + 'S="$S "\n' * 3_000 + LAUNCH)
    started = time.monotonic()
    found = run(tmp_path, {"work": 1_000_000, "seconds": 600}, "appends.sh")
    assert messages(found["appends.sh"]) == [
        "RPL902 file not fully analysed: it needs more work than the 1,000,000 units one file may take"
    ]
    assert time.monotonic() - started < 30


# -- the memory bound covers parsing in every frontend ------------------------------------------


@pytest.mark.timeout(90)
def test_a_memory_error_while_parsing_in_a_worker_is_rpl902_and_the_run_goes_on(tmp_path: Path) -> None:
    # libyaml composes 1 MB of `[a,a,...]` into about 300 MB that no budget charge interrupts
    (tmp_path / "flow.yaml").write_text("# vllm serve --return-sampling-mask\nx: [" + "a," * 500_000 + "a]\n")
    for index in range(30):
        (tmp_path / f"serve{index}.sh").write_text("#!/bin/bash\n" + LAUNCH)
    files = ["flow.yaml", *(f"serve{index}.sh" for index in range(30))]
    found = run(tmp_path, {"memory": 32 * MiB}, *files, workers=2)
    assert messages(found["flow.yaml"]) == ["RPL902 file not fully analysed: it needs more than the 32 MiB of memory one file may take"]
    assert all([code for code, _, _ in found[f"serve{index}.sh"]] == ["RPL003"] for index in range(30))


@pytest.mark.timeout(90)
def test_the_memory_bound_holds_in_this_process_too(tmp_path: Path) -> None:
    # fewer files than it takes to start workers: checked in the run's own process
    (tmp_path / "flow.yaml").write_text("# vllm serve --return-sampling-mask\nx: [" + "a," * 500_000 + "a]\n")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\n" + LAUNCH)
    found = run(tmp_path, {"memory": 32 * MiB}, "flow.yaml", "serve.sh")
    assert [code for code, _, _ in found["flow.yaml"]] == ["RPL902"]
    assert [code for code, _, _ in found["serve.sh"]] == ["RPL003"]


# -- linear cost ---------------------------------------------------------------------------------


def _ci_script(kilobytes: int) -> str:
    path = Path(__file__).parents[2] / "bench" / "frontend_cost.py"
    spec = importlib.util.spec_from_file_location("frontend_cost", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ci_script(kilobytes)


@pytest.mark.timeout(300)
def test_the_launch_at_the_end_of_1_mb_of_ci_code_is_found() -> None:
    # Before, comparing worlds hashed every variable at each `if`: quadratic, and the launch was
    # past the budget. The work bound decides (the deadline, which load moves, is lifted).
    checker = Checker(Config())
    checker.budget = {"seconds": 600}
    text = _ci_script(1024)
    result = checker.check_text("ci.sh", text, "shell")
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", text.count("\n"))]


# -- the HCL parser ---------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_hcl_error_recovery_past_the_memory_bound_is_rpl902(tmp_path: Path) -> None:
    # tree-sitter-hcl's recovery from printable junk: 6.4 GB and 27 s on 8 MiB; tried in a child beyond 4 KB
    job = 'job "p" {\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n        command = "vllm"\n'
    job += '        args = ["serve", "m", "--return-sampling-mask", "--enable-scale-out"]\n      }\n    }\n  }\n}\n'
    junk = "".join(map(chr, range(32, 127)))
    (tmp_path / "junk.nomad.hcl").write_text(job + junk * 2_000)
    (tmp_path / "policy.nomad.hcl").write_text(job)
    found = run(tmp_path, {"memory": 64 * MiB}, "junk.nomad.hcl", "policy.nomad.hcl")
    assert messages(found["junk.nomad.hcl"]) == [
        "RPL902 file not fully analysed: the HCL parser needs more than the 64 MiB of memory one file may take"
    ]
    assert [code for code, _, _ in found["policy.nomad.hcl"]] == ["RPL003"]
