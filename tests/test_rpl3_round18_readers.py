"""Round 18's readers (tests/test_rpl3_heldout18.py): a request built from a JSON schema's defaults, and
a server started through a tool runner.

- A dict comprehension whose value is made from each item (`{name: spec["default"] for name, spec in
  SCHEMA["properties"].items()}`) over a mapping the reader knows whole (a JSON schema of the tree read with
  `json.loads`/`json.load`, or a dict spelt out): each turn's key and value are read with the comprehension's
  names bound to that turn's item, so the defaults the program sends as written decide, at the `default`'s
  line. A value the app's user gives at run time (a Gradio slider's), a schema whose path the run gives, a
  filter the reader cannot decide or one that drops the key stays silent.
- A server started through a tool runner, which runs a package's command from an environment of its own:
  `pipx run [--spec SPEC] vllm serve ...`, `uv tool run [--from SPEC] vllm serve ...` (as `uvx`), in a shell
  script and in a command's word list (a Dockerfile's exec form, Python's `subprocess`). An option of the runner
  not known (or pipx's `--path`, which runs a local file) leaves the command unread.
- An extension-less script whose `#!` line runs a shell through `env` with env's own options first
  (`#!/usr/bin/env -S bash -eu`) is a shell script.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_rpl3_round14_launches import judged

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout18"
SCHEMA_ON = "gradio_app_generate_sampling_params_from_json_schema_default_presence"
SCHEMA_OFF = "gradio_app_generate_sampling_params_from_json_schema_default_neutral_clean"
APP = "app.py"
FROM_SCHEMA = ("RPL302", "schemas/sampling.schema.json", 9, False)
COMPREHENSION = 'DEFAULTS = {name: spec["default"] for name, spec in SCHEMA["properties"].items()}'
LOADED = 'SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sampling.schema.json").read_text())'
SENT = '"sampling_params": DEFAULTS,'
PIPX_ON = "pipx_run_serve_dotted_speculative_config_fly"
PIPX_OFF = "pipx_run_serve_dotted_speculative_config_standard_clean"
SCRIPT = "bin/serve-replay"
FLY = ("RPL306", SCRIPT, 11, False)
PIPX = "exec pipx run --spec 'vllm==0.34.0' vllm serve Qwen/Qwen3-0.6B"
DOTTED = [
    "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out",
    "--speculative-config.method", "ngram", "--speculative-config.num_speculative_tokens", "3",
    "--speculative-config.rejection_sample_method", "fly",
]  # fmt: skip


def findings(tmp_path: Path, case: str, changes: dict | None = None, added: dict | None = None) -> list[tuple[str, str, int, bool]]:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return judged(tree, changes, added)


# --- a request made of a JSON schema's defaults ----------------------------------------------------


def test_the_schema_default_the_app_sends_decides(tmp_path: Path) -> None:
    assert findings(tmp_path, SCHEMA_ON) == [FROM_SCHEMA]


def test_a_neutral_schema_default_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, SCHEMA_OFF) == []


@pytest.mark.parametrize(
    "spelling",
    [
        'DEFAULTS = {name: spec["default"] for name, spec in SCHEMA["properties"].items() if "default" in spec}',
        'DEFAULTS = {name: spec.get("default") for name, spec in SCHEMA["properties"].items()}',
        'DEFAULTS = {key: prop["default"] for key, prop in SCHEMA["properties"].items() if prop["type"] in ("number", "integer")}',
        'DEFAULTS = {name: SCHEMA["properties"][name]["default"] for name in ("top_k", "presence_penalty")}',
        'DEFAULTS = {f"{name}": spec["default"] for name, spec in SCHEMA["properties"].items()}',
    ],
)
def test_other_spellings_of_the_defaults(tmp_path: Path, spelling: str) -> None:
    assert findings(tmp_path, SCHEMA_ON, {APP: (COMPREHENSION, spelling)}) == [FROM_SCHEMA]


def test_a_schema_opened_with_json_load(tmp_path: Path) -> None:
    opened = 'with open(Path(__file__).parent / "schemas" / "sampling.schema.json") as f:\n    SCHEMA = json.load(f)'
    assert findings(tmp_path, SCHEMA_ON, {APP: (LOADED, opened)}) == [FROM_SCHEMA]


def test_defaults_filled_in_a_loop(tmp_path: Path) -> None:
    filled = 'DEFAULTS = {}\nfor name, spec in SCHEMA["properties"].items():\n    DEFAULTS[name] = spec["default"]'
    assert findings(tmp_path, SCHEMA_ON, {APP: (COMPREHENSION, filled)}) == [FROM_SCHEMA]


def test_a_schema_spelt_out_in_the_module(tmp_path: Path) -> None:
    spelt = 'SCHEMA = {"properties": {"top_k": {"default": 20}, "presence_penalty": {"default": 0.6}}}'
    assert findings(tmp_path, SCHEMA_ON, {APP: (LOADED, spelt)}) == [("RPL302", APP, 7, False)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the penalty a Gradio slider gives when the app runs, its schema default only the slider's start
        (
            SENT,
            '"sampling_params": {**DEFAULTS, "presence_penalty": presence_penalty},',
        ),
        # a filter that drops the penalty, and one the reader cannot decide
        (COMPREHENSION, COMPREHENSION[:-1] + ' if name != "presence_penalty"}'),
        (COMPREHENSION, COMPREHENSION[:-1] + ' if name in os.environ.get("SENT_FIELDS", "").split(",")}'),
        # a schema the run names
        (LOADED, "SCHEMA = json.loads(Path(os.environ['SCHEMA_PATH']).read_text())"),
    ],
)
def test_values_the_program_does_not_fix_stay_silent(tmp_path: Path, old: str, new: str) -> None:
    changes = {APP: (old, new)}
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / SCHEMA_ON, tree)
    text = (tree / APP).read_text(encoding="utf-8").replace("import json\n", "import json\nimport os\n")
    if "presence_penalty: float" not in text and '"presence_penalty": presence_penalty' in new:
        text = text.replace("def generate(token_ids: str) -> str:", "def generate(token_ids: str, presence_penalty: float) -> str:")
        text = text.replace(
            'inputs="text"', 'inputs=["text", gr.Slider(0.0, 2.0, value=SCHEMA["properties"]["presence_penalty"]["default"])]'
        )
    (tree / APP).write_text(text, encoding="utf-8")
    assert judged(tree, changes) == []


# --- a server started through a tool runner ----------------------------------------------------------


def test_the_pipx_script_verifies_on_the_fly(tmp_path: Path) -> None:
    assert findings(tmp_path, PIPX_ON) == [FLY]


def test_the_pipx_script_with_standard_verification_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, PIPX_OFF) == []


@pytest.mark.parametrize(
    "runner",
    [
        "exec pipx run vllm serve",
        "pipx run --python python3.12 --no-cache --spec vllm vllm serve",
        "exec pipx run -q --spec=vllm==0.34.0 -- vllm serve",
        "exec uv tool run vllm serve",
        "exec uv tool run --from 'vllm==0.34.0' --python 3.12 vllm serve",
        "exec uvx --from 'vllm==0.34.0' vllm serve",
    ],
)
def test_other_tool_runners(tmp_path: Path, runner: str) -> None:
    assert findings(tmp_path, PIPX_ON, {SCRIPT: (PIPX, runner + " Qwen/Qwen3-0.6B")}) == [FLY]


@pytest.mark.parametrize("shebang", ["#!/usr/bin/env bash", "#!/usr/bin/env -S bash -eu", "#!/bin/bash -e", "#! /bin/sh"])
def test_other_shebangs(tmp_path: Path, shebang: str) -> None:
    assert findings(tmp_path, PIPX_ON, {SCRIPT: ("#!/bin/sh", shebang)}) == [FLY]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (PIPX, "exec pipx run --path vllm serve Qwen/Qwen3-0.6B"),  # a local file named vllm
        (PIPX, "exec pipx run --some-new-option vllm serve Qwen/Qwen3-0.6B"),
        (PIPX, "exec uv tool run --some-new-option vllm serve Qwen/Qwen3-0.6B"),
        ("#!/bin/sh", "#!/usr/bin/env node"),
    ],
)
def test_what_the_runner_does_not_run_stays_silent(tmp_path: Path, old: str, new: str) -> None:
    assert findings(tmp_path, PIPX_ON, {SCRIPT: (old, new)}) == []


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("Dockerfile", 'FROM python:3.12\nENTRYPOINT ["uv", "tool", "run", "--from", "vllm", "vllm", "serve"]\nCMD ["m", {words}]\n', 3),
        ("run.py", 'import subprocess\n\nsubprocess.Popen(["pipx", "run", "--spec", "vllm==0.34.0", "vllm", "serve", "m", {words}])\n', 3),
        ("run.py", 'import subprocess\n\nsubprocess.Popen(["uvx", "vllm", "serve", "m", {words}])\n', 3),
    ],
)
def test_tool_runners_in_word_lists(tmp_path: Path, name: str, text: str, line: int) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    words = ", ".join(f'"{word}"' for word in DOTTED)
    assert judged(tree, added={name: text.format(words=words)}) == [("RPL306", name, line, False)]


def test_a_tool_runner_option_not_known_in_a_word_list_stays_silent(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    words = ", ".join(f'"{word}"' for word in DOTTED)
    text = f'import subprocess\n\nsubprocess.Popen(["pipx", "run", "--some-new-option", "vllm", "serve", "m", {words}])\n'
    assert judged(tree, added={"run.py": text}) == []
