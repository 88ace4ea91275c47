"""A vLLM `--config` YAML and the scripts of its tree that load it: the path a script reads after its
own `cd "$(dirname "$0")/.."`, and the config checked on its own (pre-commit names only it) judged by
what those scripts report about it (the command line's words come after the file's, and win)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import found

CONFIG = (
    "model: Qwen/Qwen3-0.6B\nreturn-sampling-mask: true\nlogprobs-mode: processed_logprobs\nenable-scale-out: true\n"
    "override-generation-config:\n  temperature: 1.0\n  presence_penalty: 0.5\n"
)
SERVE = "#!/usr/bin/env bash\nset -euo pipefail\n{cd}\nexec uv run vllm serve --config configs/replay.yaml {flags}\n"
CD_UP = 'cd "$(dirname "$0")/.."'


def tree(root: Path, serve: str, config: str = CONFIG, git: bool = True) -> Path:
    (root / "configs").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "configs" / "replay.yaml").write_text(config)
    (root / "scripts" / "serve.sh").write_text(serve)
    if git:
        (root / ".git").mkdir()
    return root


@pytest.mark.parametrize(
    "cd",
    [CD_UP, 'cd "$(dirname "${BASH_SOURCE[0]}")/.."', "cd $(dirname $0)/..", 'cd "$(dirname "$0")/.." && echo ready'],
)
def test_a_script_that_cds_above_its_folder_reads_the_config_from_there(tmp_path: Path, cd: str) -> None:
    root = tree(
        tmp_path,
        SERVE.format(cd=cd, flags="--override-generation-config '{\"presence_penalty\": 0.4}'"),
        config=CONFIG.replace("0.5", "0.0"),
        git=False,  # no repository root to find the config from: only the cd tells where it is
    )
    assert found(root) == [("RPL302", "scripts/serve.sh", 4)]  # the command line's override, over the file's


def test_without_the_cd_the_path_is_not_the_one_the_script_reads(tmp_path: Path) -> None:
    # read from beside the script (scripts/configs/...), or the tree's root: here the root holds it, as before
    root = tree(
        tmp_path,
        SERVE.format(cd="", flags="--override-generation-config '{\"presence_penalty\": 0.4}'"),
        config=CONFIG.replace("0.5", "0.0"),
    )
    assert found(root) == [("RPL302", "scripts/serve.sh", 4)]
    # another cd after it: the working folder is not known, the launch stays open
    (tmp_path / "scripts" / "serve.sh").write_text(SERVE.format(cd=CD_UP + "\ncd /srv", flags=""))
    assert ("RPL302", "scripts/serve.sh", 4) not in found(root)


def test_a_config_whose_loader_replaces_a_penalty_is_clean_alone_and_in_the_tree(tmp_path: Path) -> None:
    root = tree(tmp_path, SERVE.format(cd=CD_UP, flags="--override-generation-config '{\"temperature\": 1.0}'"))
    assert found(root) == []
    assert found(root, "configs/replay.yaml") == []  # pre-commit names the config alone


def test_a_config_its_loader_keeps_reports_its_own_line_alone_and_in_the_tree(tmp_path: Path) -> None:
    root = tree(tmp_path, SERVE.format(cd=CD_UP, flags=""))
    assert found(root) == [("RPL302", "configs/replay.yaml", 7)]
    assert found(root, "configs/replay.yaml") == [("RPL302", "configs/replay.yaml", 7)]


def test_a_config_no_script_loads_is_judged_as_written(tmp_path: Path) -> None:
    root = tree(tmp_path, "#!/bin/bash\necho nothing\n")
    assert found(root, "configs/replay.yaml") == [("RPL302", "configs/replay.yaml", 7)]


def test_the_loader_beside_the_config_is_found_before_the_rest_of_a_large_repository(tmp_path: Path) -> None:
    tree(tmp_path / "project", SERVE.format(cd=CD_UP, flags="--override-generation-config '{\"temperature\": 1.0}'"), git=False)
    (tmp_path / ".git").mkdir()
    for n in range(30):  # more loading scripts elsewhere than the bound of launchers read
        other = tmp_path / "other" / f"p{n:02d}"
        other.mkdir(parents=True)
        (other / "serve.sh").write_text("#!/bin/bash\nvllm serve --config other.yaml --return-sampling-mask\n")
    assert found(tmp_path, "project/configs/replay.yaml") == []


WORKFLOW = """name: replay
on: [pull_request]
jobs:
  serve:
    runs-on: [self-hosted, gpu]
    steps:
      - uses: actions/checkout@v4
      - run: |
          vllm serve --config configs/replay.yaml {flags} &
"""
TRACE_ON = "model: Qwen/Qwen3-0.6B\nreturn-sampling-mask: true\nlogprobs-mode: processed_logprobs\nenable-scale-out: true\nenable-trace-replay: true\n"


def workflow_tree(root: Path, flags: str, config: str = TRACE_ON, git: bool = True) -> Path:
    tree(root, "#!/bin/bash\necho nothing\n", config, git)
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "replay.yml").write_text(WORKFLOW.format(flags=flags))
    return root


@pytest.mark.parametrize("git", [True, False])
def test_a_workflow_reads_its_config_from_the_checkout_and_its_flag_wins(tmp_path: Path, git: bool) -> None:
    off = TRACE_ON.replace("enable-trace-replay: true", "enable-trace-replay: false")
    root = workflow_tree(tmp_path, "--enable-trace-replay", off, git)  # (without `.git`, no marker tells the root)
    assert found(root) == [("RPL305", ".github/workflows/replay.yml", 9)]


def test_a_config_a_workflow_turns_trace_replay_off_for_is_clean_alone_and_in_the_tree(tmp_path: Path) -> None:
    root = workflow_tree(tmp_path, "--no-enable-trace-replay")
    assert found(root) == []
    assert found(root, "configs/replay.yaml") == []  # pre-commit names the config alone


def test_a_config_a_workflow_keeps_reports_its_own_line(tmp_path: Path) -> None:
    root = workflow_tree(tmp_path, "--port 8001")
    assert found(root, "configs/replay.yaml") == [("RPL305", "configs/replay.yaml", 5)]


def test_a_workflow_outside_github_workflows_is_not_a_checkout_launcher(tmp_path: Path) -> None:
    root = tree(tmp_path, "#!/bin/bash\necho nothing\n", TRACE_ON)
    (root / "ci").mkdir()
    (root / "ci" / "replay.yml").write_text(WORKFLOW.format(flags="--no-enable-trace-replay"))
    assert found(root, "configs/replay.yaml") == [("RPL305", "configs/replay.yaml", 5)]
