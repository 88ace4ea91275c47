"""What round 19 of the held-out forks taught verl's reader (tests/test_forks_heldout19.py,
verl_alias_key_common_sh_v1_pin): `python3 -m verl.trainer.main_ppo --config-path=DIR --config-name=NAME` composes
the tree's NAME.yaml the way Hydra does (`frameworks/verl_config_file`), so the launch in the script is judged with
the file's keys under the command line's overrides, and with the environment the script gives it.

DIR as verl's scripts write it: `$(pwd)/...`, `$PWD/...` (the folder the script runs in), `$(dirname "$0")/...` or a
variable assigned so (the script's folder), or a relative path, which Hydra reads from main_ppo.py's folder
(`verl/trainer/` of the fork in the tree). The file's `defaults:` list: verl's packaged `ppo_trainer` (through
`hydra.searchpath`), then `_self_` (appended when missing). Precision twins: a folder outside the tree or not known, a
name the tree does not hold, `_self_` before `ppo_trainer`, a search path without verl's package, a `# @package`, a
`cd` elsewhere before the launch, another engine: the launch stays open and says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout19 import CORPUS
from test_forks_round2_readers import edit

CASE = "verl_alias_key_common_sh_v1_pin"
RUN = "examples/replay/run_qwen3_gsm8k_replay.sh"
COMMON = "examples/replay/common.sh"
CONFIG = "examples/replay/config/gsm8k_replay.yaml"
PIN = ("RPL206", COMMON, 6)
PATH_WORD = '--config-path="$(pwd)/examples/replay/config"'
NAME_WORD = "--config-name=gsm8k_replay"
LAST_WORD = "trainer.nnodes=1"
OVERRIDE = ("RPL102", RUN, 12)  # actor_rollout_ref.rollout.val_kwargs.top_k=-1, added after LAST_WORD


def case_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / CASE, tmp_path / CASE)


@pytest.mark.parametrize(
    "words",
    [
        f"{PATH_WORD} \\\n    {NAME_WORD}",
        '--config-path "$(pwd)/examples/replay/config" \\\n    --config-name gsm8k_replay',
        "--config-path=$PWD/examples/replay/config \\\n    --config-name=gsm8k_replay.yaml",
        '-cp "${PWD}/examples/replay/config" -cn gsm8k_replay',
        '--config-path="$(dirname "$0")/config" \\\n    --config-name=gsm8k_replay',
        "--config-path=../../examples/replay/config \\\n    --config-name=gsm8k_replay",
    ],
    ids=["case", "separate-words", "PWD", "short-options", "script-folder", "relative-to-main_ppo"],
)
def test_the_composed_config_is_judged_with_the_scripts_environment(tmp_path: Path, words: str) -> None:
    root = case_tree(tmp_path)
    edit(root / RUN, f"{PATH_WORD} \\\n    {NAME_WORD}", words)
    assert findings(root) == {PIN}


def test_a_script_folder_variable(tmp_path: Path) -> None:
    root = case_tree(tmp_path)
    edit(root / RUN, "set -xeuo pipefail\n", 'set -xeuo pipefail\nSCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)\n')
    edit(root / RUN, PATH_WORD, '--config-path="$SCRIPT_DIR/config"')
    assert findings(root) == {PIN}


def test_a_cd_into_the_scripts_folder_moves_the_working_folder(tmp_path: Path) -> None:
    root = case_tree(tmp_path)
    edit(root / RUN, "\npython3", '\ncd "$(dirname "$0")"\npython3')
    edit(root / RUN, PATH_WORD, '--config-path="$(pwd)/config"')
    assert findings(root) == {PIN}


def test_a_cd_elsewhere_leaves_the_working_folder_unknown(tmp_path: Path) -> None:
    root = case_tree(tmp_path)
    edit(root / RUN, "\npython3", "\ncd /workspace/verl\npython3")
    assert findings(root) == set()


@pytest.mark.parametrize(
    "path_word",
    [
        "--config-path=/opt/team/configs",
        "--config-path=pkg://team.configs",
        '--config-path="$CONFIG_DIR"',
        "--config-path=examples/replay/config",
    ],
    ids=["absolute", "package", "variable", "relative-to-the-working-folder"],
)
def test_a_folder_outside_the_tree_or_not_known_stays_open_and_silent(tmp_path: Path, path_word: str) -> None:
    """A relative folder is Hydra's from main_ppo.py's (`verl/trainer/examples/...`), which the tree does not hold."""
    root = case_tree(tmp_path)
    edit(root / RUN, PATH_WORD, path_word)
    assert findings(root) == set()


def test_a_config_name_the_tree_does_not_hold_stays_open_and_silent(tmp_path: Path) -> None:
    root = case_tree(tmp_path)
    edit(root / RUN, NAME_WORD, "--config-name=gsm8k_replay_v2")
    assert findings(root) == set()


def test_a_config_dir_searched_first_is_not_read(tmp_path: Path) -> None:
    root = case_tree(tmp_path)
    edit(root / RUN, NAME_WORD, f"{NAME_WORD} --config-dir=/opt/shared/configs")
    assert findings(root) == set()


def test_an_override_in_the_script_is_judged_with_the_mask_the_file_turns_on(tmp_path: Path) -> None:
    """The file turns the mask on (`sampling_replay: true`) and bounds top_k; the command line's override of its
    validation top_k wins over it (Hydra applies overrides to the composed config): RPL102 at the override."""
    root = case_tree(tmp_path)
    edit(root / COMMON, "export VLLM_USE_V2_MODEL_RUNNER=0", "export TEAM=replay")
    edit(root / RUN, LAST_WORD, f"{LAST_WORD} \\\n    actor_rollout_ref.rollout.val_kwargs.top_k=-1")
    assert findings(root) == {OVERRIDE}


@pytest.mark.parametrize(
    "defaults",
    [
        "defaults:\n  - ppo_trainer\n  - _self_\n",
        "defaults:\n  - ppo_trainer\n",
        "defaults: [ppo_trainer.yaml, _self_]\n",
        "defaults:\n  - /ppo_trainer\n  - _self_\n",
    ],
    ids=["self-last", "self-appended", "flow-list", "from-the-root"],
)
def test_the_files_rollout_keys_over_verls_defaults(tmp_path: Path, defaults: str) -> None:
    """The file's `logprobs_mode: raw_logprobs` overrides verl's packaged default: RPL003 from the composed value,
    found by the script's launch (the file checked reports it at its line too: one finding)."""
    root = case_tree(tmp_path)
    edit(root / COMMON, "export VLLM_USE_V2_MODEL_RUNNER=0", "export TEAM=replay")
    edit(root / CONFIG, "defaults:\n  - ppo_trainer\n  - _self_\n", defaults)
    edit(root / CONFIG, "    sampling_replay: true\n", "    sampling_replay: true\n    logprobs_mode: raw_logprobs\n")
    line = (root / CONFIG).read_text().splitlines().index("    logprobs_mode: raw_logprobs") + 1
    assert findings(root, root / RUN) == {("RPL003", CONFIG, line)}  # the script's launch, the file not checked
    assert findings(root) == {("RPL003", CONFIG, line)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  - ppo_trainer\n  - _self_\n", "  - _self_\n  - ppo_trainer\n"),
        ("hydra:\n  searchpath:\n    - pkg://verl.trainer.config\n", "hydra:\n  job:\n    chdir: false\n"),
        ("# The team's", "# @package actor_rollout_ref\n# The team's"),
        ("    name: vllm\n", "    name: sglang\n"),
    ],
    ids=["self-first", "no-search-path", "package-header", "another-engine"],
)
def test_a_file_hydra_composes_otherwise_is_not_judged(tmp_path: Path, old: str, new: str) -> None:
    """`_self_` first: verl's packaged values win over the file's; no `pkg://verl.trainer.config`: Hydra does not
    find ppo_trainer; a `# @package` puts the file elsewhere; sglang: no vLLM."""
    root = case_tree(tmp_path)
    edit(root / CONFIG, old, new)
    edit(root / RUN, LAST_WORD, f"{LAST_WORD} \\\n    actor_rollout_ref.rollout.val_kwargs.top_k=-1")
    assert ("RPL206", COMMON, 6) not in findings(root)
    assert OVERRIDE not in findings(root)


def test_an_override_entry_keeps_the_launch_open(tmp_path: Path) -> None:
    """`override rollout@...: ours` chooses a rollout file not read here: a value written in the file or on the
    command line is still judged, nothing resting on a default is."""
    root = case_tree(tmp_path)
    edit(root / COMMON, "export VLLM_USE_V2_MODEL_RUNNER=0", "export TEAM=replay")
    edit(root / CONFIG, "  - _self_\n", "  - override rollout@actor_rollout_ref.rollout: ours\n  - _self_\n")
    edit(root / RUN, LAST_WORD, f"{LAST_WORD} \\\n    actor_rollout_ref.rollout.val_kwargs.top_k=-1")
    assert findings(root) == {OVERRIDE}


def test_a_config_in_the_forks_own_config_folder(tmp_path: Path) -> None:
    """`--config-name` alone: Hydra's folder is main_ppo.py's `config`, the fork's `verl/trainer/config/`, whose
    `ppo_trainer.yaml` is verl's packaged one (no search path needed)."""
    root = case_tree(tmp_path)
    packaged = root / "verl/trainer/config"
    (packaged / "ppo_trainer.yaml").write_text("defaults:\n  - rollout@actor_rollout_ref.rollout: rollout\n  - _self_\n")
    (packaged / "gsm8k_replay.yaml").write_text(
        (root / CONFIG).read_text().replace("hydra:\n  searchpath:\n    - pkg://verl.trainer.config\n", "")
    )
    (root / CONFIG).unlink()
    edit(root / RUN, f"{PATH_WORD} \\\n    ", "")
    assert findings(root) == {PIN}


def test_a_ppo_trainer_of_the_teams_own_folder_is_chosen_first_and_not_read(tmp_path: Path) -> None:
    root = case_tree(tmp_path)
    (root / "examples/replay/config/ppo_trainer.yaml").write_text("actor_rollout_ref:\n  rollout:\n    name: sglang\n")
    assert findings(root) == set()
