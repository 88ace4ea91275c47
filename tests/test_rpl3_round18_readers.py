"""Round 18's readers (tests/test_rpl3_heldout18.py): a request built from a JSON schema's defaults, and
a server started through a tool runner.

- A dict comprehension whose value is made from each item (`{name: spec["default"] for name, spec in
  SCHEMA["properties"].items()}`) over a mapping the reader knows whole (a JSON schema of the tree read with
  `json.loads`/`json.load`, or a dict spelt out): each turn's key and value are read with the comprehension's
  names bound to that turn's item, so the defaults the program sends as written decide, at the `default`'s
  line. A value the app's user gives at run time (a Gradio slider's), a schema whose path the run gives, a
  filter the reader cannot decide or one that drops the key stays silent.
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
