"""Round 19's readers (tests/test_rpl3_heldout19.py): what a tree hands a replay server, and what its clients send.

- A shell launch's word that is a JSON file of the tree read by command substitution (`--speculative-config
  "$(cat configs/spec.json)"`, `$(< FILE)`, backquotes, or held by a variable first) is the file's object, each
  key found at its line of the file. An unquoted use (split at the JSON's blanks), a pipeline, an absolute path or a
  file the tree does not hold leaves the word unknown.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_rpl3_round14_launches import judged

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout19"
SPEC_ON = "serve_speculative_config_cat_json_file_synthetic"
SPEC_OFF = "serve_speculative_config_cat_json_file_block_verification_clean"
SERVE = "scripts/serve_policy.sh"
SYNTHETIC = ("RPL306", "configs/spec.json", 6, False)
READ = 'SPEC_CONFIG="$(cat configs/spec.json)"'


def findings(tmp_path: Path, case: str, changes: dict | None = None, added: dict | None = None) -> list[tuple[str, str, int, bool]]:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return judged(tree, changes, added)


# --- a JSON file read by command substitution -----------------------------------------------------


def test_the_spec_file_read_by_cat_asks_for_synthetic_verification(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_ON) == [SYNTHETIC]


def test_block_verification_in_the_file_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC_OFF) == []


@pytest.mark.parametrize(
    "changes",
    [
        {SERVE: (READ, 'SPEC_CONFIG="$(< configs/spec.json)"')},
        {SERVE: (READ, "SPEC_CONFIG=$(cat configs/spec.json)")},
        {SERVE: (READ, "SPEC_CONFIG=`cat 'configs/spec.json'`")},
        {SERVE: ('"$SPEC_CONFIG"', '"$(cat configs/spec.json)"')},
    ],
)
def test_other_spellings_of_the_read(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, SPEC_ON, changes) == [SYNTHETIC]


@pytest.mark.parametrize(
    "changes",
    [
        {SERVE: ('"$SPEC_CONFIG"', "$SPEC_CONFIG")},  # split at the JSON's blanks
        {SERVE: (READ, 'SPEC_CONFIG="$(cat configs/spec.json | jq -c .)"')},
        {SERVE: (READ, 'SPEC_CONFIG="$(cat /etc/vllm/spec.json)"')},
        {SERVE: (READ, 'SPEC_CONFIG="$(cat configs/spec-prod.json)"')},
        {SERVE: (READ, 'SPEC_CONFIG="$(cat "$SPEC_FILE")"')},
    ],
)
def test_a_read_not_known_leaves_the_config_unknown(tmp_path: Path, changes: dict) -> None:
    assert findings(tmp_path, SPEC_ON, changes) == []
