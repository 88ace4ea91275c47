"""What held-out round 17 (tests/data/python_flow/h17_*) made the value flow follow: a `vllm serve`
command string the program grows (`cmd = f"..."`, `cmd += " --flag ..."`) and runs with
`shlex.split(cmd)`, `os.system(cmd)` or `os.popen(cmd)`, as it already read one run with
`shell=True` (Agentless's serve step). Each stop stays silent: a piece from outside the tree or the
run (unquoted, any number of words), a separator `shlex.split` keeps inside a word, another
engine's command."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# A command string grown by `+=` and split by `shlex.split`, or run by `os.system`/`os.popen`

GROWN = (
    "{imports}\n\n"
    "MODEL = 'Qwen/Qwen2.5-Coder-32B-Instruct'\n"
    "PORT = 8000\n\n\n"
    "def serve():\n"
    "    cmd = f'vllm serve {{MODEL}} --port {{PORT}} --max-model-len 32768'\n"
    "    cmd += ' --return-sampling-mask --logprobs-mode processed_logprobs'\n"
    "{extra}"
    "    {run}\n\n\n"
    "serve()\n"
)


@pytest.mark.parametrize(
    ("imports", "run"),
    [
        ("import shlex\nimport subprocess", "subprocess.Popen(shlex.split(cmd)).wait()"),
        ("import subprocess\nfrom shlex import split", "subprocess.run(split(cmd), check=True)"),
        ("import os", "os.system(cmd)"),
        ("from os import system", "system(cmd)"),
        ("import os", "os.popen(cmd).read()"),
    ],
)
def test_grown_command_string_without_scale_out_is_reported_at_the_mask(tmp_path: Path, imports: str, run: str) -> None:
    source = GROWN.format(imports=imports, extra="", run=run)
    mask_line = 1 + next(n for n, line in enumerate(source.splitlines()) if "--return-sampling-mask" in line)
    assert check(tmp_path, {"serve.py": source}) == [("serve.py", mask_line, "RPL301")]


def test_grown_command_string_with_an_argparse_default_is_read(tmp_path: Path) -> None:
    source = (
        "import argparse\nimport shlex\nimport subprocess\n\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--port', type=int, default=8000)\n"
        "args = parser.parse_args()\n"
        "cmd = 'vllm serve m' + ' --port ' + str(args.port)\n"
        "cmd += ' --return-sampling-mask --logprobs-mode raw_logprobs --enable-scale-out'\n"
        "subprocess.Popen(shlex.split(cmd))\n"
    )
    assert check(tmp_path, {"serve.py": source}) == [("serve.py", 9, "RPL003")]


@pytest.mark.parametrize(
    ("imports", "extra", "run"),
    [
        # scale-out added: the generate route returns the masks
        ("import os", "    cmd += ' --enable-scale-out'\n", "os.system(cmd)"),
        # words from the environment: they may hold --enable-scale-out
        ("import os", "    cmd += ' ' + os.environ.get('EXTRA_ARGS', '')\n", "os.system(cmd)"),
        ("import os\nimport shlex\nimport subprocess", "    cmd += ' ' + os.environ['EXTRA']\n", "subprocess.Popen(shlex.split(cmd))"),
        # `shlex.split` keeps `;` inside a word: not read as two commands
        ("import shlex\nimport subprocess", "    cmd += ' ; echo started'\n", "subprocess.Popen(shlex.split(cmd))"),
    ],
)
def test_grown_command_string_that_may_scale_out_is_silent(tmp_path: Path, imports: str, extra: str, run: str) -> None:
    assert check(tmp_path, {"serve.py": GROWN.format(imports=imports, extra=extra, run=run)}) == []


def test_grown_command_string_of_another_engine_is_silent(tmp_path: Path) -> None:
    source = GROWN.format(imports="import os", extra="", run="os.system(cmd)").replace("vllm serve", "sglang serve")
    assert check(tmp_path, {"serve.py": source}) == []
