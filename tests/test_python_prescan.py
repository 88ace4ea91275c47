"""The prescan (frontends/python/prescan.py) may only skip the parse of files that start
nothing: it must never change a finding. Each tricky spelling below is checked with and without
it, and the files where it is sure are checked to be files `focus` finds nothing in."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config

focus_module = importlib.import_module("replaylint.frontends.python.focus")  # the package re-exports the function
prescan = importlib.import_module("replaylint.frontends.python.prescan")
names = importlib.import_module("replaylint.frontends.python.names")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# Files where the call and the replay words sit in different top-level statements: the prescan
# is sure nothing starts (the point: vLLM's own modules are like these).
APART = {
    "two functions": (
        'from vllm import LLM\ndef build():\n    return LLM("m")\ndef options():\n    return {"return_sampling_mask": True}\n'
    ),
    "a class naming the mask, a script calling a subprocess": (
        "import subprocess\n"
        "class Config:\n"
        "    return_sampling_mask: bool = False\n"
        "    '''\n"
        "def not_a_function():\n"
        "    '''\n"
        "def main():\n"
        '    subprocess.run(["ls"])\n'
    ),
    "a script's own --config beside a subprocess call": (
        '"""Usage: python bench.py --config configs/sweep.yaml"""\n'
        "import subprocess\n"
        "def main():\n"
        '    parser.add_argument("--config", required=True)\n'
        '    subprocess.call(["python", "run.py", "--config", args.config])\n'
    ),
    "no replay word at all (a config file loaded by path)": (
        "import json, os\nfrom vllm import LLM\nHERE = os.path.dirname(__file__)\n"
        "with open(os.path.join(HERE, 'engine.json')) as f:\n    LLM('m', **json.load(f))\n"
    ),
    "names that only contain the runner variable's second part, prose naming it": (
        "from vllm.v1.outputs import EMPTY_MODEL_RUNNER_OUTPUT\n"
        "def test_runner(monkeypatch):\n"
        "    # then MODEL_RUNNER runs the encoder\n"
        '    monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", "0")\n'
        "def test_update():\n"
        "    scheduler.return_sampling_mask = True\n"
        "    return EMPTY_MODEL_RUNNER_OUTPUT\n"
    ),
    "empty comment lines, as license headers write them": (
        "#\n# SPDX-License-Identifier: Apache-2.0\n#\nfrom vllm import LLM\n#\ndef build():\n    return LLM('m')\n"
        "def options():\n    return {'return_sampling_mask': True}  #\n"
    ),
    "the engine named in a docstring and a comment only": (
        '"""Build an LLM(model) later."""\n'
        "def options():\n"
        "    # LLM(model, return_sampling_mask=True) is what the caller does\n"
        '    return {"return_sampling_mask": True}\n'
    ),
}

# Files where they share a statement in a way a line-by-line reading could miss: the prescan
# must stay unsure, and the findings must be the parse's.
TOGETHER = {
    "a call after a string whose lines start at column 0": (
        "from vllm import LLM\ndef main():\n    doc = '''\ndef fake():\n'''\n    LLM(\"m\", return_sampling_mask=True)\n"
    ),
    "a call after a bracket whose lines start at column 0": (
        'from vllm import LLM\ndef main():\n    options = dict(\nx=1,\n)\n    LLM("m", return_sampling_mask=True, **options)\n'
    ),
    "a backslash continuation": 'from vllm import LLM\nllm = \\\nLLM("m", return_sampling_mask=True)\n',
    "else at column 0": ('from vllm import LLM\nif True:\n    llm = LLM("m")\nelse:\n    opts = {"return_sampling_mask": True}\n'),
    "a decorator calling the engine": ('from vllm import LLM\n@register(LLM("m", return_sampling_mask=True))\ndef handler():\n    pass\n'),
    "a decorator above the replay words": (
        'from vllm import LLM\n@register(LLM("m"))\ndef handler():\n    return {"return_sampling_mask": True}\n'
    ),
    "a call in an f-string field": "from vllm import LLM\nprint(f\"{LLM('m', return_sampling_mask=True)}\")\n",
    "a parenthesised engine": 'from vllm import LLM\n(LLM)("m", return_sampling_mask=True)\n',
    "a comment between the engine and its call": (
        'from vllm import LLM\ndef main():\n    return (LLM  # the engine\n    )("m", return_sampling_mask=True)\n'
    ),
    "an alias": 'from vllm import LLM as Engine\nEngine("m", return_sampling_mask=True)\n',
    "a module-level option dict": 'from vllm import LLM\nOPTS = {"return_sampling_mask": True}\ndef main():\n    LLM("m", **OPTS)\n',
    "an imported spawner": ('from subprocess import run\ndef main():\n    run(["vllm", "serve", "m", "--return-sampling-mask"])\n'),
    "a spawning call split over lines": (
        'import subprocess\ndef main():\n    subprocess . run (\n        ["vllm", "serve", "m", "--return-sampling-mask"])\n'
    ),
    "the runner variable written through environ": (
        "import os\n"
        "from vllm import LLM\n"
        "def main():\n"
        '    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n'
        "def build():\n"
        '    return LLM("m", return_sampling_mask=True)\n'
    ),
    "the runner variable spelled in parts": (
        'import os\ndef main():\n    os.environ["VLLM_USE_V2_" "MODEL_RUNNER"] = "0"\ndef other():\n    return "--return-sampling-mask"\n'
    ),
    "the runner variable's second part glued in an f-string": (
        'import os\ndef main(v):\n    os.environ[f"VLLM_USE_V{v}_MODEL_RUNNER"] = "0"\ndef other():\n    return "--return-sampling-mask"\n'
    ),
    "the runner variable's second part in a constant": (
        'import os\nSUFFIX = "_MODEL_RUNNER"\ndef main():\n    os.environ["VLLM_USE_V2" + SUFFIX] = "0"\n'
        'def other():\n    return "--return-sampling-mask"\n'
    ),
    "vllm serve --config in a subprocess call": (
        'import subprocess\ndef main():\n    subprocess.run(["vllm", "serve", "m", "--config", "replay.yaml"])\n'
    ),
    "--config in a module-level string a spawning call uses": (
        'import subprocess\nCMD = "vllm serve m --config replay.yaml"\ndef main():\n    subprocess.run(CMD, shell=True)\n'
    ),
    "a call after an empty comment line": "#\nfrom vllm import LLM\n#\nLLM('m', return_sampling_mask=True)  #\n",
    "a quote the scan does not know": (
        "from vllm import LLM\ndef main():\n    LLM('m', return_sampling_mask=True)\ndef broken():\n    x = \"unclosed\n"
    ),
}


def findings(text: str) -> list[tuple[str, int, int]]:
    result = Checker(Config()).check_bytes("t.py", text.encode())
    return [(f.code, f.span.start_line, f.span.start_col) for f in result.findings]


def sure(text: str) -> bool:
    return prescan.nothing_starts(text, set(names.ENGINE_NAMES) | names.vllm_aliases(text), names.imported_spawners(text))


@pytest.mark.parametrize("name", sorted(APART))
def test_calls_and_replay_words_apart_are_told_without_the_parse(name: str, monkeypatch) -> None:
    text = APART[name]
    assert sure(text)
    monkeypatch.setattr(focus_module, "nothing_starts", lambda *args: False)
    assert focus_module.focus(text) is None  # what the parse finds too


@pytest.mark.parametrize("name", sorted(TOGETHER))
def test_calls_and_replay_words_together_are_left_to_the_parse(name: str, monkeypatch) -> None:
    text = TOGETHER[name]
    assert not sure(text)
    with_prescan = findings(text)
    monkeypatch.setattr(focus_module, "nothing_starts", lambda *args: False)
    assert with_prescan == findings(text)


def test_no_fixture_is_judged_differently_with_the_prescan(monkeypatch) -> None:
    """Every Python file of the golden cases and the real-world corpus: where the prescan is
    sure, the parse finds nothing either."""
    checked = sure_count = 0
    for path in sorted(FIXTURES.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        checked += 1
        if not sure(text):
            continue
        sure_count += 1
        with monkeypatch.context() as patched:
            patched.setattr(focus_module, "nothing_starts", lambda *args: False)
            try:
                assert focus_module.focus(text) is None, path
            except focus_module.ParseError:
                pass  # a file CPython rejects that starts nothing: skipped now, as the prefilter skips such files
    assert checked > 300 and sure_count > 0
