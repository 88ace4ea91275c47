"""What round 21 of the held-out forks taught the fork readers (tests/test_forks_heldout21.py), and their
precision: each test takes a held-out tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way.

SkyRL: `InferenceEngineConfig.__post_init__` writing into `self.engine_init_kwargs` (SkyRL builds its config with
`datacls(**kwargs)`, so the hook runs on the launch's values): keys merged before the launch's dict
(`{"k": v, **self.engine_init_kwargs}`, `setdefault`) under the launch's keys, those after it (`{**..., "k": v}`,
`d["k"] = v`, `update`, `|=`) over them, each under the hook's `if` decided as the fork's other writes are; a merge
not read keeps the launch open. The eval requests then meet the mask with SkyRL's greedy default.
open-instruct: a dict the module names (a function without parameters returning a literal, a constant) merged into
the actor's engine keywords (`kwargs.update(replay_engine_kwargs())`, `|=`, `{**kwargs, **D}`, a loop over its
items), each key at its line in that dict; a merge of a dict not read keeps the replay keys open."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout21 import CORPUS
from test_forks_round2_readers import edit

SKYRL_CASE = "skyrl_post_init_mask_eval_greedy_default"
SKYRL_CONFIG = "skyrl/train/config/config.py"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
SKYRL_HOOK = """        self.engine_init_kwargs = {
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            **self.engine_init_kwargs,
        }
"""
SKYRL_FOUND = {("RPL101", SKYRL_CONFIG, 1217), ("RPL102", SKYRL_CONFIG, 1217)}  # the eval requests: temperature 0.0, top_k -1


def skyrl_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / SKYRL_CASE, tmp_path / SKYRL_CASE)


def skyrl_launch_writes(root: Path, override: str) -> None:
    edit(root / SKYRL_LAUNCH, "  trainer.epochs=1 \\\n", f"  trainer.epochs=1 \\\n  {override} \\\n")


def mask_line(root: Path, path: str) -> int:
    lines = (root / path).read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if "return_sampling_mask" in line and "True" in line)


def at_mask(root: Path, path: str, codes: tuple[str, ...]) -> set[tuple[str, str, int]]:
    return {(code, path, mask_line(root, path)) for code in codes}


def test_the_hooks_mask_meets_the_greedy_eval_default_at_its_key(tmp_path: Path) -> None:
    assert findings(skyrl_tree(tmp_path)) == SKYRL_FOUND


@pytest.mark.parametrize(
    "hook",
    [
        "        self.engine_init_kwargs = dict(self.engine_init_kwargs)\n"
        '        self.engine_init_kwargs.setdefault("return_sampling_mask", True)\n'
        '        self.engine_init_kwargs.setdefault("logprobs_mode", "processed_logprobs")\n',
        "        super().__post_init__()\n"
        '        self.engine_init_kwargs["return_sampling_mask"] = True\n'
        '        self.engine_init_kwargs["logprobs_mode"] = "processed_logprobs"\n',
        '        self.engine_init_kwargs.update(return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        '        self.engine_init_kwargs = {**self.engine_init_kwargs, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}\n',
        '        self.engine_init_kwargs = dict(self.engine_init_kwargs, return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        '        self.engine_init_kwargs |= {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}\n',
    ],
    ids=["setdefault", "item", "update", "spread-after", "dict-call", "union"],
)
def test_other_spellings_of_the_hook_turn_the_mask_on(tmp_path: Path, hook: str) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, hook)
    assert findings(root) == at_mask(root, SKYRL_CONFIG, ("RPL101", "RPL102"))


def test_a_key_under_the_launchs_gives_way_to_its_word(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    skyrl_launch_writes(root, "generator.inference_engine.engine_init_kwargs.return_sampling_mask=false")
    assert findings(root) == set()


def test_a_key_over_the_launchs_wins_over_its_word(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, SKYRL_HOOK.replace('"return_sampling_mask": True,\n', "") + _MASK_OVER)
    skyrl_launch_writes(root, "generator.inference_engine.engine_init_kwargs.return_sampling_mask=false")
    assert findings(root) == at_mask(root, SKYRL_CONFIG, ("RPL101", "RPL102"))


_MASK_OVER = '        self.engine_init_kwargs["return_sampling_mask"] = True\n'


def test_eval_requests_the_launch_bounds_and_samples_are_clean(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    skyrl_launch_writes(root, "generator.eval_sampling_params.temperature=0.6 \\\n  generator.eval_sampling_params.top_k=20")
    assert findings(root) == set()


def test_a_hook_under_a_switch_the_launch_leaves_off_is_silent(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, "        if self.enable_return_routed_experts:\n" + textwrap.indent(SKYRL_HOOK, "    "))
    assert findings(root) == set()
    skyrl_launch_writes(root, "generator.inference_engine.enable_return_routed_experts=true")
    assert {code for code, _, _ in findings(root)} == {"RPL101", "RPL102"}


@pytest.mark.parametrize("test, found", [("not self.enable_return_routed_experts", False), ("self.enable_return_routed_experts", True)])
def test_an_early_return_decides_the_writes_after_it(tmp_path: Path, test: str, found: bool) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, f"        if {test}:\n            return\n" + SKYRL_HOOK)
    assert findings(root) == (at_mask(root, SKYRL_CONFIG, ("RPL101", "RPL102")) if found else set())


def test_a_hook_under_a_variable_the_launch_does_not_export_is_silent(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, '        if os.environ.get("SKYRL_REPLAY", "0") == "1":\n' + textwrap.indent(SKYRL_HOOK, "    "))
    assert findings(root) == set()


@pytest.mark.parametrize(
    "hook",
    [
        SKYRL_HOOK + "        self.engine_init_kwargs = normalized_engine_kwargs(self.engine_init_kwargs)\n",
        SKYRL_HOOK.replace("**self.engine_init_kwargs,", "**self.engine_init_kwargs, **replay_overrides(self.model_dtype),"),
        SKYRL_HOOK + "        self.engine_init_kwargs.clear()\n",
    ],
    ids=["rebound-by-a-call", "merged-call", "cleared"],
)
def test_a_hook_write_not_read_here_keeps_the_launch_open(tmp_path: Path, hook: str) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, hook)
    assert findings(root) == set()


def test_a_hook_of_another_config_class_is_not_the_engines(tmp_path: Path) -> None:
    root = skyrl_tree(tmp_path)
    edit(root / SKYRL_CONFIG, SKYRL_HOOK, "        pass\n")
    edit(
        root / SKYRL_CONFIG,
        "\n\n@dataclass\nclass InferenceEngineConfig(",
        f"\n\n{_OTHER_CONFIG}\n\n@dataclass\nclass InferenceEngineConfig(",
    )
    assert findings(root) == set()


_OTHER_CONFIG = """@dataclass
class ReplayEngineConfig(BaseConfig):
    engine_init_kwargs: Dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.engine_init_kwargs = {"return_sampling_mask": True, **self.engine_init_kwargs}
"""


OI_CASE = "oi_helper_engine_kwargs_requests_without_top_k"
OI_ENGINES = "open_instruct/vllm_utils.py"
OI_MERGE = "        kwargs.update(replay_engine_kwargs())\n"
OI_HELPER = '''def replay_engine_kwargs() -> dict[str, Any]:
    """Fork: the engine arguments of sampling distribution replay."""
    return {
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
'''
OI_FOUND = {("RPL102", OI_ENGINES, 1018)}  # the `completions.create(` call that sends no top_k


def oi_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / OI_CASE, tmp_path / OI_CASE)


def test_the_helpers_mask_meets_requests_without_top_k(tmp_path: Path) -> None:
    assert findings(oi_tree(tmp_path)) == OI_FOUND


@pytest.mark.parametrize(
    "merge, helper",
    [
        ("        kwargs.update(**replay_engine_kwargs())\n", OI_HELPER),
        ("        kwargs |= replay_engine_kwargs()\n", OI_HELPER),
        ("        kwargs = {**kwargs, **replay_engine_kwargs()}\n", OI_HELPER),
        ("        for key, value in replay_engine_kwargs().items():\n            kwargs[key] = value\n", OI_HELPER),
        ("        kwargs.update(REPLAY_ENGINE_KWARGS)\n", 'REPLAY_ENGINE_KWARGS = {"return_sampling_mask": True}\n\n\n\n\n\n'),
    ],
    ids=["update-spread", "union", "rebound-merge", "loop", "constant"],
)
def test_other_spellings_of_the_merge_turn_the_mask_on(tmp_path: Path, merge: str, helper: str) -> None:
    root = oi_tree(tmp_path)
    edit(root / OI_ENGINES, OI_MERGE, merge)
    edit(root / OI_ENGINES, OI_HELPER, helper)
    shift = merge.count("\n") - 1 + helper.count("\n") - OI_HELPER.count("\n")
    assert findings(root) == {("RPL102", OI_ENGINES, 1018 + shift)}


def test_the_message_names_the_helpers_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from replaylint.cli.main import main

    root = oi_tree(tmp_path)
    main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "concise", str(root)])
    assert "open_instruct/vllm_utils.py:140 sets return_sampling_mask=True" in capsys.readouterr().out


@pytest.mark.parametrize(
    "helper",
    [
        OI_HELPER.replace('"return_sampling_mask": True', '"return_sampling_mask": False'),
        OI_HELPER.replace('"return_sampling_mask": True,\n', ""),
    ],
    ids=["mask-off", "no-mask"],
)
def test_a_helper_without_the_mask_is_clean(tmp_path: Path, helper: str) -> None:
    root = oi_tree(tmp_path)
    edit(root / OI_ENGINES, OI_HELPER, helper)
    assert findings(root) == set()


@pytest.mark.parametrize(
    "merge, helper",
    [
        ("        kwargs.update(replay_engine_kwargs(self.replay))\n", OI_HELPER.replace("kwargs()", "kwargs(enabled)")),
        ("        kwargs = {**replay_engine_kwargs(), **kwargs}\n", OI_HELPER),
        ('        if os.environ.get("OI_REPLAY") == "1":\n    ' + OI_MERGE, OI_HELPER),
        ("        kwargs.update(self.replay_kwargs)\n", OI_HELPER),
    ],
    ids=["helper-with-a-parameter", "under-the-keywords", "unexported-variable", "attribute"],
)
def test_a_merge_not_read_here_is_silent(tmp_path: Path, merge: str, helper: str) -> None:
    root = oi_tree(tmp_path)
    edit(root / OI_ENGINES, OI_MERGE, merge)
    edit(root / OI_ENGINES, OI_HELPER, helper)
    assert findings(root) == set()


def test_a_merge_after_the_engine_is_built_does_not_reach_it(tmp_path: Path) -> None:
    root = oi_tree(tmp_path)
    edit(root / OI_ENGINES, OI_MERGE, "")
    built = "        engine_args = vllm.AsyncEngineArgs(*args, **kwargs)\n"
    edit(root / OI_ENGINES, built, built + OI_MERGE)
    assert findings(root) == set()
