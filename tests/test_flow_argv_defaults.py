"""A program that builds a `vllm serve` command from its own options: a word that rests on a default the program
uses when run as written (an argparse `default=`) counts, as it does for an engine's keyword, and the message says
whose default it is and where; a script of the tree that runs the program with the option decides instead. A word
resting on the run's environment (`os.getenv`'s fallback) stays unknown. Also: a fix added after a `**spread` keyword keeps the call's one-per-line layout."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

_SERVE = """import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="Qwen/Qwen3-8B")
parser.add_argument("--mode", default="{mode}")
args = parser.parse_args()

cmd = ["vllm", "serve", args.model, "--return-sampling-mask", "--logprobs-mode", args.mode, "--enable-scale-out"]
subprocess.run(cmd, check=True)
"""


def _check(root: Path, *extra: str) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", *extra, str(root)])
    return json.loads(out.getvalue()) if not extra else []


def _found(root: Path) -> list[tuple[str, int, str]]:
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in _check(root))


def test_an_option_default_in_a_built_command_decides(tmp_path: Path) -> None:
    (tmp_path / "serve.py").write_text(_SERVE.format(mode="raw_logprobs"))
    found = _check(tmp_path)
    assert [(Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in found] == [("serve.py", 6, "RPL003")]
    assert "--mode, default 'raw_logprobs' (serve.py:6)" in found[0]["message"]


def test_the_default_that_asks_for_replay_is_clean(tmp_path: Path) -> None:
    (tmp_path / "serve.py").write_text(_SERVE.format(mode="processed_logprobs"))
    assert _found(tmp_path) == []


@pytest.mark.parametrize(
    ("flags", "found"),
    [
        ("--mode processed_logprobs", []),  # the script's run decides
        ("--model m", [("serve.py", 6, "RPL003")]),  # the script leaves the default
    ],
)
def test_a_script_of_the_tree_that_runs_the_program_decides(tmp_path: Path, flags: str, found: list) -> None:
    (tmp_path / "serve.py").write_text(_SERVE.format(mode="raw_logprobs"))
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\npython serve.py {flags}\n")
    assert _found(tmp_path) == found


def test_an_environment_fallback_in_a_built_command_stays_open(tmp_path: Path) -> None:
    """The run's environment may hold anything (and a port so decided would tie another file's clients without saying so)."""
    (tmp_path / "serve.py").write_text(
        "import os\nimport subprocess\n\n"
        'subprocess.run(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", '
        'os.getenv("MODE", "raw_logprobs"), "--enable-scale-out"])\n'
    )
    assert _found(tmp_path) == []


def test_a_fix_after_a_spread_keyword_keeps_the_layout(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("engine_kwargs:\n  return_sampling_mask: true\n")
    (tmp_path / "run.py").write_text(
        "import os\n\nimport yaml\nfrom vllm import LLM\n\n"
        'with open(os.path.join(os.path.dirname(__file__), "config.yaml")) as f:\n'
        "    config = yaml.safe_load(f)\n\n"
        "llm = LLM(\n"
        '    "m",\n'
        "    max_model_len=2048,\n"
        '    **config["engine_kwargs"],\n'
        ")\n"
    )
    assert _found(tmp_path) == [("config.yaml", 2, "RPL003")]
    _check(tmp_path, "--fix", "--unsafe-fixes")
    assert '    **config["engine_kwargs"],\n    logprobs_mode="processed_logprobs",\n)\n' in (tmp_path / "run.py").read_text()
