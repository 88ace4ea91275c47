"""What rounds 17 and 18 of the held-out forks taught the verl and SkyRL readers (tests/test_forks_heldout17.py,
tests/test_forks_heldout18.py), and their precision: each test takes the held-out tree, checks what it reports,
and changes it so that the value may not reach vLLM, or does, or reaches it another way.

verl: the tree is the framework. A key the fork adds to its rollout.yaml is in the configuration Hydra composes
(`rollout@actor_rollout_ref.rollout`), so `actor_rollout_ref.rollout.KEY=v` is accepted (and `+KEY=v` refused, as on
any key the configuration has); a rollout key the fork's server passes on (`self.config.KEY`,
`self.config.get("KEY", d)`, also in a dict merged by `args = dict(**args, **replay_args)`) is read as verl's own
typed keys are: the launch's value, else the fork's rollout.yaml. A subclass of the rollout server that the fork
starts (`ray.remote(Subclass)`) and that sets vLLM's parsed namespace in `run_server` before `super().run_server(args)`
decides over every other write. SkyRL: `for k, v in dict(overrides, **replay_overrides).items(): setattr(args, k, v)`
copies each merged dict onto the namespace. A value from outside the tree, a write under a test not decided here,
or a class not started says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout17 import CORPUS as ROUND17
from test_forks_heldout18 import CORPUS as ROUND18
from test_forks_round2_readers import edit

SGLANG = "verl_rollout_field_mask_sglang_section_clean"
MERGE = "verl_rollout_field_mask_dict_merge_greedy_validation"
SUBCLASS = "verl_subclass_run_server_mask_rollout_defaults"
SKYRL = "skyrl_typed_mask_default_on_eval_sampling_default"
VERL_LAUNCH = "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"
SUBCLASS_LAUNCH = "examples/grpo_trainer/run_qwen2_5_3b_grpo_replay.sh"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
ROLLOUT_YAML = "verl/trainer/config/rollout/rollout.yaml"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_CONFIG = "skyrl/train/config/config.py"

MASK_ON = "    actor_rollout_ref.rollout.return_sampling_mask=True \\\n"
MERGE_WRITE = (
    '        replay_args = {"return_sampling_mask": self.config.return_sampling_mask}\n        args = dict(**args, **replay_args)\n'
)
GET_WRITE = '            "return_sampling_mask": self.config.get("return_sampling_mask", False),\n'
SAMPLED_VALIDATION = "    actor_rollout_ref.rollout.val_kwargs.temperature=0.6 \\\n"
GREEDY_VALIDATION = {("RPL101", VERL_LAUNCH, 20)}
SUBCLASS_MASK = "        args.return_sampling_mask = True\n"
SUBCLASS_FOUND = {("RPL101", SERVER, 689), ("RPL102", SERVER, 689)}
SKYRL_MERGE = "    for key, value in dict(overrides, **replay_overrides).items():\n"
SKYRL_FOUND = {("RPL101", SKYRL_CONFIG, 1184), ("RPL102", SKYRL_CONFIG, 1184)}


def tree(corpus: Path, case: str, tmp_path: Path) -> Path:
    return in_repository(corpus / case, tmp_path / case)


def merge_spellings(text: str, first: str, other: str, call: str) -> list[str]:
    """`text` with its merge `call` of the dicts `first` and `other` spelt the other ways Python merges two dicts."""
    return [text, text.replace(call, f"{{**{first}, **{other}}}"), text.replace(call, f"({first} | {other})")]


def edited(corpus: Path, case: str, tmp_path: Path, path: str, old: str, new: str) -> set[tuple[str, str, int]]:
    """The findings in the case's tree with `old` replaced by `new` in `path`."""
    root = tree(corpus, case, tmp_path)
    edit(root / path, old, new)
    return findings(root)


# verl: a key of the fork's rollout.yaml is Hydra's, and the server's `self.config.get` of it is typed


def test_verl_fork_rollout_key_is_read_through_config_get(tmp_path: Path) -> None:
    """The clean case's `self.config.get("return_sampling_mask", False)` is the launch's True: without the
    launch's sampled validation, verl's greedy validation default conflicts, at the line that turns the mask on."""
    root = tree(ROUND17, SGLANG, tmp_path)
    assert findings(root) == set()
    edit(root / VERL_LAUNCH, SAMPLED_VALIDATION, "")
    assert findings(root) == {("RPL101", VERL_LAUNCH, 22)}


def test_verl_rollout_key_the_fork_does_not_declare_is_refused_by_hydra(tmp_path: Path) -> None:
    root = tree(ROUND17, SGLANG, tmp_path)
    edit(root / ROLLOUT_YAML, "return_sampling_mask: False\n", "")
    assert {(code, line) for code, _, line in findings(root)} == {("RPL204", 22)}


def test_verl_plus_on_a_key_the_fork_declares_is_refused_by_hydra(tmp_path: Path) -> None:
    """`+KEY=v` on a key the composed configuration holds (not null): "Could not append to config"."""
    root = tree(ROUND17, SGLANG, tmp_path)
    edit(root / VERL_LAUNCH, MASK_ON, "    +actor_rollout_ref.rollout.return_sampling_mask=True \\\n")
    assert {(code, line) for code, _, line in findings(root)} == {("RPL204", 22)}


def test_verl_fork_yaml_default_on_conflicts_at_its_own_line(tmp_path: Path) -> None:
    """The fork's rollout.yaml turns the mask on by default and the launch leaves it: verl's greedy validation
    conflicts at the yaml line that turns the mask on."""
    root = tree(ROUND17, MERGE, tmp_path)
    edit(root / ROLLOUT_YAML, "return_sampling_mask: False\n", "return_sampling_mask: True\n")
    edit(root / VERL_LAUNCH, "    actor_rollout_ref.rollout.return_sampling_mask=True \\\n", "")
    assert findings(root) == {("RPL101", ROLLOUT_YAML, 81)}


@pytest.mark.parametrize(
    "spelling",
    [
        *merge_spellings(MERGE_WRITE, "args", "replay_args", "dict(**args, **replay_args)"),
        MERGE_WRITE.replace("dict(**args, **replay_args)", "dict(args, **replay_args)"),
        MERGE_WRITE.replace("self.config.return_sampling_mask", 'self.config["return_sampling_mask"]'),
        MERGE_WRITE.replace("self.config.return_sampling_mask", 'self.config.get("return_sampling_mask", False)'),
        "        args = dict(**args, return_sampling_mask=self.config.return_sampling_mask)\n",
    ],
    ids=["dict-spread", "literal-spread", "or-merge", "dict-positional", "subscript", "get-default", "keyword"],
)
def test_verl_fork_rollout_key_merged_into_args(tmp_path: Path, spelling: str) -> None:
    assert edited(ROUND17, MERGE, tmp_path, SERVER, MERGE_WRITE, spelling) == GREEDY_VALIDATION


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (VERL_LAUNCH, MASK_ON, "    actor_rollout_ref.rollout.return_sampling_mask=$REPLAY \\\n"),
        (VERL_LAUNCH, MASK_ON, "    actor_rollout_ref.rollout.return_sampling_mask=False \\\n"),
        (VERL_LAUNCH, MASK_ON, ""),
        (VERL_LAUNCH, "rollout.name=vllm", "rollout.name=sglang"),
        (SERVER, "args = dict(**args, **replay_args)", "args = dict(**args, **self.replay_engine_args())"),
        (SERVER, "        args = dict(", '        if os.environ.get("VERL_REPLAY"):\n            args = dict('),
        (SERVER, "self.config.return_sampling_mask}", "self.replay_enabled()}"),
    ],
    ids=[
        "launch-from-outside",
        "launch-off",
        "fork-default-off",
        "sglang",
        "merged-hook-not-read",
        "merge-under-env-test",
        "value-not-read",
    ],
)
def test_verl_merged_mask_not_known_on_is_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    assert edited(ROUND17, MERGE, tmp_path, path, old, new) == set()


def test_verl_late_merged_key_over_the_users_engine_kwargs(tmp_path: Path) -> None:
    """The user's `engine_kwargs.vllm.return_sampling_mask` beside the fork's late write: not decided here."""
    root = tree(ROUND17, MERGE, tmp_path)
    edit(root / VERL_LAUNCH, MASK_ON, MASK_ON + "    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=False \\\n")
    assert ("RPL101", VERL_LAUNCH, 20) not in findings(root)


# verl: a started subclass of the rollout server sets vLLM's namespace in run_server


@pytest.mark.parametrize(
    "spelling",
    [SUBCLASS_MASK, '        setattr(args, "return_sampling_mask", True)\n'],
    ids=["attribute", "setattr"],
)
def test_verl_subclass_run_server_namespace_write(tmp_path: Path, spelling: str) -> None:
    assert edited(ROUND18, SUBCLASS, tmp_path, SERVER, SUBCLASS_MASK, spelling) == SUBCLASS_FOUND


def test_verl_subclass_namespace_logprobs_mode_is_judged_too(tmp_path: Path) -> None:
    assert edited(
        ROUND18, SUBCLASS, tmp_path, SERVER, SUBCLASS_MASK, SUBCLASS_MASK + '        args.logprobs_mode = "raw_logprobs"\n'
    ) == SUBCLASS_FOUND | {("RPL003", SERVER, 690)}


def test_verl_subclass_with_launch_sampling_fixed_is_clean(tmp_path: Path) -> None:
    root = tree(ROUND18, SUBCLASS, tmp_path)
    sampling = "".join(
        f"    actor_rollout_ref.rollout.{key} \\\n"
        for key in ("top_k=20", "val_kwargs.top_k=20", "val_kwargs.temperature=0.6", "val_kwargs.do_sample=True")
    )
    edit(root / SUBCLASS_LAUNCH, "    actor_rollout_ref.rollout.n=5 \\\n", "    actor_rollout_ref.rollout.n=5 \\\n" + sampling)
    assert findings(root) == set()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ray.remote(ReplayvLLMHttpServer)", "ray.remote(vLLMHttpServer)"),
        (SUBCLASS_MASK, '        if os.environ.get("VERL_REPLAY") == "1":\n    ' + SUBCLASS_MASK),
        (SUBCLASS_MASK, "        args.return_sampling_mask = self.replay\n"),
        (SUBCLASS_MASK + "        await super().run_server(args)\n", "        await super().run_server(args)\n" + SUBCLASS_MASK),
        (SUBCLASS_MASK, "        self.tune(args)\n"),
    ],
    ids=["subclass-not-started", "under-env-test", "value-not-read", "after-super", "handed-on"],
)
def test_verl_subclass_mask_not_known_on_is_silent(tmp_path: Path, old: str, new: str) -> None:
    assert edited(ROUND18, SUBCLASS, tmp_path, SERVER, old, new) == set()


# SkyRL: a merged dict copied onto vLLM's namespace


@pytest.mark.parametrize(
    "spelling",
    [
        *merge_spellings(SKYRL_MERGE, "overrides", "replay_overrides", "dict(overrides, **replay_overrides)"),
        SKYRL_MERGE.replace("**replay_overrides", "return_sampling_mask=ie_cfg.return_sampling_mask, logprobs_mode=ie_cfg.logprobs_mode"),
    ],
    ids=["dict-call", "literal-spread", "or-merge", "keywords"],
)
def test_skyrl_merged_dict_copied_onto_the_namespace(tmp_path: Path, spelling: str) -> None:
    assert edited(ROUND17, SKYRL, tmp_path, SKYRL_UTILS, SKYRL_MERGE, spelling) == SKYRL_FOUND


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (
            SKYRL_LAUNCH,
            "  generator.sampling_params.top_k=20 \\\n",
            "  generator.sampling_params.top_k=20 \\\n  generator.inference_engine.return_sampling_mask=false \\\n",
        ),
        (
            SKYRL_LAUNCH,
            "  generator.sampling_params.top_k=20 \\\n",
            '  generator.sampling_params.top_k=20 \\\n  generator.inference_engine.return_sampling_mask="$REPLAY" \\\n',
        ),
        (SKYRL_UTILS, "dict(overrides, **replay_overrides)", "dict(overrides, **replay_overrides, **fork_engine_overrides(ie_cfg))"),
        (SKYRL_UTILS, "dict(overrides, **replay_overrides)", "overrides"),
    ],
    ids=["launch-off", "launch-from-outside", "merged-dict-not-read", "replay-not-merged"],
)
def test_skyrl_merged_mask_not_known_on_is_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    assert edited(ROUND17, SKYRL, tmp_path, path, old, new) == set()
