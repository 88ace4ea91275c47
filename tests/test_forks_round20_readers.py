"""What round 20 of the held-out forks taught the fork readers (tests/test_forks_heldout20.py), and their
precision: each test takes a held-out tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way.

SkyRL: `ie_cfg = dataclasses.replace(cfg.generator.inference_engine, engine_init_kwargs={**..., "k": v})` inside
build_vllm_cli_args gives the dict it later copies onto vLLM's namespace its keys: those after the launch's own
over them, those before under them, each under the replace's `if`; a replace made after the copy changes nothing.
OpenRLHF: an actor subclass a registry dict holds (`VLLM_ENGINE_CLASSES[engine_class].options(...).remote(...)`)
adds what its `__init__` writes into `**kwargs` where the fork's driver option (else the parameter's default) picks it.
NeMo-RL: the worker's `vllm_kwargs = {**_REPLAY_VLLM_KWARGS, **vllm_kwargs}` gives the recipe's `vllm_kwargs` the
constant's keys by default (under the recipe's own), or over them when merged after."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout20 import CORPUS
from test_forks_round2_readers import edit

SKYRL_CASE = "skyrl_dataclasses_replace_mask_raw_logprobs"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
SKYRL_REPLACE = """    ie_cfg = dataclasses.replace(
        cfg.generator.inference_engine,
        engine_init_kwargs={**cfg.generator.inference_engine.engine_init_kwargs, "return_sampling_mask": True},
    )
"""
SKYRL_FOUND = {("RPL003", SKYRL_UTILS, 90)}


def skyrl_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / SKYRL_CASE, tmp_path / SKYRL_CASE)


def skyrl_launch_writes(root: Path, override: str) -> None:
    edit(root / SKYRL_LAUNCH, '  trainer.run_name="gsm8k_grpo"', f'  trainer.run_name="gsm8k_grpo" \\\n  {override}')


def test_the_replace_turns_the_mask_on_at_its_key(tmp_path: Path) -> None:
    assert findings(skyrl_tree(tmp_path)) == SKYRL_FOUND


@pytest.mark.parametrize(
    "spelling",
    [
        SKYRL_REPLACE.replace("dataclasses.replace(", "replace("),
        SKYRL_REPLACE.replace(
            '{**cfg.generator.inference_engine.engine_init_kwargs, "return_sampling_mask": True}',
            "dict(cfg.generator.inference_engine.engine_init_kwargs, return_sampling_mask=True)",
        ),
        SKYRL_REPLACE.replace(
            '{**cfg.generator.inference_engine.engine_init_kwargs, "return_sampling_mask": True}',
            'cfg.generator.inference_engine.engine_init_kwargs | {"return_sampling_mask": True}',
        ),
    ],
    ids=["imported-replace", "dict-call", "union"],
)
def test_other_spellings_of_the_replace_turn_the_mask_on(tmp_path: Path, spelling: str) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_UTILS, SKYRL_REPLACE, spelling)
    if spelling.lstrip().startswith("ie_cfg = replace("):
        edit(root / SKYRL_UTILS, "import dataclasses\n", "from dataclasses import replace\n")
    assert findings(root) == SKYRL_FOUND


def test_a_replace_of_the_name_bound_to_the_config_turns_the_mask_on(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(
        root / SKYRL_UTILS,
        SKYRL_REPLACE,
        "    ie_cfg = cfg.generator.inference_engine\n"
        '    ie_cfg = dataclasses.replace(ie_cfg, engine_init_kwargs={**ie_cfg.engine_init_kwargs, "return_sampling_mask": True})\n'
        "\n\n\n",
    )
    assert findings(root) == {("RPL003", SKYRL_UTILS, 89)}


def test_the_launchs_logprobs_mode_beside_the_replaced_mask_is_clean(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    skyrl_launch_writes(root, "generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs")
    assert findings(root) == set()


def test_a_key_after_the_launchs_wins_over_its_word(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    skyrl_launch_writes(root, "generator.inference_engine.engine_init_kwargs.return_sampling_mask=false")
    assert findings(root) == SKYRL_FOUND


def test_a_key_before_the_launchs_gives_way_to_its_word(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(
        root / SKYRL_UTILS,
        '{**cfg.generator.inference_engine.engine_init_kwargs, "return_sampling_mask": True}',
        '{"return_sampling_mask": True, **cfg.generator.inference_engine.engine_init_kwargs}',
    )
    assert findings(root) == SKYRL_FOUND
    skyrl_launch_writes(root, "generator.inference_engine.engine_init_kwargs.return_sampling_mask=false")
    assert findings(root) == set()


def test_a_replace_on_a_branch_the_launch_does_not_take_is_silent(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    guarded = "    ie_cfg = cfg.generator.inference_engine\n    if ie_cfg.enable_return_routed_experts:\n"
    edit(root / SKYRL_UTILS, SKYRL_REPLACE, guarded + textwrap.indent(SKYRL_REPLACE, "    "))
    assert findings(root) == set()
    skyrl_launch_writes(root, "generator.inference_engine.enable_return_routed_experts=true")
    assert findings(root) == {("RPL003", SKYRL_LAUNCH, 26)}  # the launch's word turns the switch on


def test_a_replace_under_a_variable_the_launch_does_not_export_is_silent(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    guarded = '    ie_cfg = cfg.generator.inference_engine\n    if os.environ.get("SKYRL_REPLAY", "0") == "1":\n'
    edit(root / SKYRL_UTILS, SKYRL_REPLACE, guarded + textwrap.indent(SKYRL_REPLACE, "    "))
    edit(root / SKYRL_UTILS, "import dataclasses\n", "import dataclasses\nimport os\n")
    assert findings(root) == set()


def test_a_replace_after_the_copy_changes_nothing(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_UTILS, SKYRL_REPLACE, "    ie_cfg = cfg.generator.inference_engine\n\n\n\n")
    edit(
        root / SKYRL_UTILS, "\n    return args\n\n\ndef get_pd_cli_args", "\n" + SKYRL_REPLACE + "    return args\n\n\ndef get_pd_cli_args"
    )
    assert findings(root) == set()


OPENRLHF_CASE = "openrlhf_replay_actor_class_flag"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
OPENRLHF_CLI = "openrlhf/cli/train_ppo_ray.py"
OPENRLHF_LAUNCH = "examples/scripts/train_grpo_replay_ray.sh"
OPENRLHF_FLAG = "   --vllm.engine_class vllm_replay \\\n"
OPENRLHF_MASK = '        kwargs["return_sampling_mask"] = True\n'
OPENRLHF_FOUND = {("RPL003", OPENRLHF_LAUNCH, 13)}  # the launch's word picks the class that turns the mask on


def openrlhf_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / OPENRLHF_CASE, tmp_path / OPENRLHF_CASE)


def test_the_flag_that_picks_the_replay_actor_is_reported(tmp_path: Path) -> None:
    assert findings(openrlhf_tree(tmp_path)) == OPENRLHF_FOUND


@pytest.mark.parametrize(
    "spelling",
    [
        "        kwargs.update(return_sampling_mask=True)\n",
        '        kwargs.update({"return_sampling_mask": True})\n',
        "",  # the keyword of the parent's call below
    ],
    ids=["update-keyword", "update-dict", "super-keyword"],
)
def test_other_spellings_of_the_subclass_write_are_reported(tmp_path: Path, spelling: str) -> None:
    root = openrlhf_tree(tmp_path)
    edit(root / OPENRLHF_ENGINES, OPENRLHF_MASK, spelling or "\n")
    if not spelling:
        edit(
            root / OPENRLHF_ENGINES,
            "await super().__init__(*args, **kwargs)",
            "await super().__init__(*args, return_sampling_mask=True, **kwargs)",
        )
    assert findings(root) == OPENRLHF_FOUND


@pytest.mark.parametrize("flag", ["", "   --vllm.engine_class vllm \\\n"], ids=["not-passed", "other-class"])
def test_the_other_actor_class_is_silent(tmp_path: Path, flag: str) -> None:
    root = openrlhf_tree(tmp_path)
    edit(root / OPENRLHF_LAUNCH, OPENRLHF_FLAG, flag)
    assert findings(root) == set()


def test_the_correction_flag_beside_the_replay_actor_is_clean(tmp_path: Path) -> None:
    root = openrlhf_tree(tmp_path)
    edit(root / OPENRLHF_LAUNCH, OPENRLHF_FLAG, OPENRLHF_FLAG + "   --algo.advantage.is_correction_enable \\\n")
    assert findings(root) == set()


@pytest.mark.parametrize("default, found", [("vllm_replay", {("RPL003", OPENRLHF_ENGINES, 214)}), ("vllm", set())])
def test_a_parameter_no_caller_passes_is_decided_by_its_default(tmp_path: Path, default: str, found: set) -> None:
    root = openrlhf_tree(tmp_path)
    edit(root / OPENRLHF_CLI, "            engine_class=args.vllm.engine_class,\n", "")
    edit(
        root / OPENRLHF_CLI,
        '"--vllm.engine_class", type=str, default="vllm", choices=["vllm", "vllm_replay"], help="vLLM rollout actor"',
        '"--vllm.other"',
    )
    edit(root / OPENRLHF_ENGINES, '    engine_class: str = "vllm",', f'    engine_class: str = "{default}",')
    edit(root / OPENRLHF_LAUNCH, OPENRLHF_FLAG, "")
    assert findings(root) == found


def test_a_subclass_write_under_a_test_not_read_is_silent(tmp_path: Path) -> None:
    root = openrlhf_tree(tmp_path)
    edit(root / OPENRLHF_ENGINES, OPENRLHF_MASK, '        if os.environ.get("REPLAY") == "1":\n    ' + OPENRLHF_MASK)
    assert findings(root) == set()


NEMO_CASE = "nemo_worker_merged_defaults_adaptive_ngram"
NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_CHILD = "examples/configs/grpo_math_1B_ngram.yaml"
NEMO_MERGE = "        vllm_kwargs = {**_REPLAY_VLLM_KWARGS, **vllm_kwargs}\n"
NEMO_CONSTANT = '_REPLAY_VLLM_KWARGS: dict[str, Any] = {"return_sampling_mask": True}'
NEMO_FOUND = {("RPL002", NEMO_CHILD, 12)}


def nemo_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / NEMO_CASE, tmp_path / NEMO_CASE)


def test_the_merged_replay_defaults_meet_the_recipes_adaptive_verification(tmp_path: Path) -> None:
    assert findings(nemo_tree(tmp_path)) == NEMO_FOUND


@pytest.mark.parametrize(
    "merge, constant",
    [
        ('        vllm_kwargs = {"return_sampling_mask": True, **vllm_kwargs}\n', NEMO_CONSTANT),
        ("        vllm_kwargs = dict(_REPLAY_VLLM_KWARGS, **vllm_kwargs)\n", NEMO_CONSTANT),
        ("        vllm_kwargs = _REPLAY_VLLM_KWARGS | vllm_kwargs\n", NEMO_CONSTANT),
        (NEMO_MERGE, "_REPLAY_VLLM_KWARGS = dict(return_sampling_mask=True)"),
        ("        vllm_kwargs = {**vllm_kwargs, **_REPLAY_VLLM_KWARGS}\n", NEMO_CONSTANT),
    ],
    ids=["literal-key", "dict-call", "union", "plain-constant", "merged-over"],
)
def test_other_spellings_of_the_merge_turn_the_mask_on(tmp_path: Path, merge: str, constant: str) -> None:
    root = nemo_tree(tmp_path)
    edit(root / NEMO_WORKER, NEMO_MERGE, merge)
    edit(root / NEMO_WORKER, NEMO_CONSTANT, constant)
    assert findings(root) == NEMO_FOUND


def recipe_mask_off(root: Path) -> None:
    edit(root / NEMO_CHILD, "    vllm_kwargs:\n", "    vllm_kwargs:\n      return_sampling_mask: false\n")


def test_the_recipes_own_key_wins_over_the_merged_default(tmp_path: Path) -> None:
    root = nemo_tree(tmp_path)
    recipe_mask_off(root)
    assert findings(root) == set()


def test_a_key_merged_over_the_recipes_wins(tmp_path: Path) -> None:
    root = nemo_tree(tmp_path)
    edit(root / NEMO_WORKER, NEMO_MERGE, "        vllm_kwargs = {**vllm_kwargs, **_REPLAY_VLLM_KWARGS}\n")
    recipe_mask_off(root)
    assert findings(root) == {("RPL002", NEMO_CHILD, 13)}


def test_fixed_verification_boundaries_are_clean(tmp_path: Path) -> None:
    root = nemo_tree(tmp_path)
    edit(root / NEMO_CHILD, "enable_adaptive_verification: true", "enable_adaptive_verification: false")
    assert findings(root) == set()


@pytest.mark.parametrize(
    "merge",
    [
        '        if os.environ.get("NEMO_REPLAY") == "1":\n    ' + NEMO_MERGE,
        "        vllm_kwargs = {**replay_defaults(self.cfg), **vllm_kwargs}\n",
    ],
    ids=["under-a-test-not-read", "a-dict-not-read"],
)
def test_a_merge_not_read_here_is_silent(tmp_path: Path, merge: str) -> None:
    root = nemo_tree(tmp_path)
    edit(root / NEMO_WORKER, NEMO_MERGE, merge)
    assert findings(root) == set()
