"""What round 11 of the held-out forks taught the fork readers (tests/test_forks_heldout11.py), and its precision:
each test takes a round-11 tree, checks what it reports, and changes it so that the value may not reach vLLM,
or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

NeMo-RL: the worker's `vllm_kwargs.setdefault(key, self.cfg["vllm_cfg"].get(key, default))` takes the
recipe's `vllm_cfg` value (else the code's default), gives way to the recipe's `vllm_kwargs`, and leaves the
key unknown where either is not read here. OpenRLHF: the actor's `kwargs.setdefault("k", v)` in `__init__`
reaches the engine where `create_vllm_engines`' dict lacks the key (or its `if` does not hold). The value
flow: a `setdefault` after a write under an `if` is in force only where that `if` did not hold."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout11 import CORPUS
from test_forks_round2_readers import edit
from test_python_flow_round10 import run


def tree(case: str, tmp_path: Path) -> Path:
    return in_repository(CORPUS / case, tmp_path / case)


NEMO_CASE = "nemo_yaml_default_mask_on_vllm_kwargs_setdefault_top_k_null"
NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_CONFIG = "examples/configs/grpo_math_1B.yaml"
NEMO_LAUNCH = "examples/run_grpo_math_replay.sh"
NEMO_READ = 'self.cfg["vllm_cfg"].get("return_sampling_mask", False)'
NEMO_MASK = "      return_sampling_mask: true  # fork: sampling distribution replay on by default\n"
NEMO_COPY = '        vllm_kwargs: dict[str, Any] = copy.deepcopy(self.cfg.get("vllm_kwargs", {}))\n'
TOP_K_NULL = {("RPL102", NEMO_CONFIG, 373)}


@pytest.mark.parametrize(
    ("read", "before"),
    [
        (NEMO_READ, ""),
        ('self.cfg["vllm_cfg"]["return_sampling_mask"]', ""),
        ('vllm_cfg.get("return_sampling_mask", False)', '        vllm_cfg = self.cfg["vllm_cfg"]\n'),
    ],
    ids=["get", "subscript", "bound-name"],
)
def test_nemo_setdefault_reading_vllm_cfg_takes_the_recipes_switch(tmp_path: Path, read: str, before: str) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_READ, read)
    edit(root / NEMO_WORKER, NEMO_COPY, before + NEMO_COPY)
    assert findings(root) == TOP_K_NULL
    edit(root / NEMO_CONFIG, NEMO_MASK, NEMO_MASK.replace("true", "false"))
    assert findings(root) == set()


def test_nemo_setdefault_reading_vllm_cfg_falls_back_to_the_codes_default(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_CONFIG, NEMO_MASK, "")
    assert findings(root) == set()  # `.get(..., False)`
    edit(root / NEMO_WORKER, NEMO_READ, NEMO_READ.replace("False", "True"))
    assert findings(root) == TOP_K_NULL


def test_nemo_setdefault_gives_way_to_the_recipes_vllm_kwargs(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_CONFIG, "    vllm_kwargs: {}\n", "    vllm_kwargs:\n      return_sampling_mask: false\n")
    assert findings(root) == set()


def test_nemo_setdefault_bounded_top_k_is_clean(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_CONFIG, "    top_k: null\n", "    top_k: 20\n")
    assert findings(root) == set()


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (NEMO_CONFIG, NEMO_MASK, "      return_sampling_mask: ${oc.env:NRL_REPLAY,false}\n"),  # from the environment
        (NEMO_CONFIG, "    vllm_kwargs: {}\n", "    vllm_kwargs: ${oc.env:NRL_VLLM_KWARGS}\n"),  # may hold the key
        (NEMO_WORKER, "        vllm_kwargs.setdefault(\n", '        if self.cfg.get("replay"):\n          vllm_kwargs.setdefault(\n'),
    ],
    ids=["switch-from-outside", "vllm-kwargs-from-outside", "under-an-if"],
)
def test_nemo_setdefault_not_known_turns_nothing_on(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("policy.generation.vllm_cfg.return_sampling_mask=false", set()),
        ("++policy.generation.vllm_kwargs.return_sampling_mask=false", set()),  # the setdefault gives way
        ("policy.generation.vllm_cfg.return_sampling_mask=${REPLAY}", set()),  # from outside the tree
        ("cluster.num_nodes=1", TOP_K_NULL),
    ],
)
def test_nemo_setdefault_switch_given_by_the_launch(tmp_path: Path, word: str, expected: set) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_LAUNCH, "logger.wandb.name=grpo-math-replay", f"logger.wandb.name=grpo-math-replay \\\n    {word}")
    with contextlib.chdir(root):  # NeMo-RL's scripts run from its root (`--config examples/configs/...`)
        assert findings(root) == expected


OPENRLHF_CASE = "openrlhf_actor_init_setdefault_mask_no_correction_flag"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
OPENRLHF_LAUNCH = "examples/scripts/train_grpo_replay_ray.sh"
SETDEFAULT = '        kwargs.setdefault("return_sampling_mask", True)\n'
CORRECTION = ("   --train.seed 42\n", "   --train.seed 42 \\\n   --algo.advantage.is_correction_enable\n")
RAW_LOGPROBS = {("RPL003", OPENRLHF_ENGINES, 62)}


@pytest.mark.parametrize(
    "write",
    [SETDEFAULT, "        kwargs.setdefault('return_sampling_mask', True)\n", '        kwargs["return_sampling_mask"] = True\n'],
    ids=["setdefault", "single-quoted", "subscript"],
)
def test_openrlhf_actor_init_mask_reaches_vllm(tmp_path: Path, write: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, SETDEFAULT, write)
    assert findings(root) == RAW_LOGPROBS  # vLLM's raw_logprobs default conflicts: the line that turns the mask on


def test_openrlhf_actor_setdefault_as_the_first_statement(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, SETDEFAULT, "")
    edit(root / OPENRLHF_ENGINES, "        self._configure_device_env(\n", SETDEFAULT + "        self._configure_device_env(\n")
    assert findings(root) == {("RPL003", OPENRLHF_ENGINES, 46)}


def test_openrlhf_actor_setdefault_with_the_correction_flag_is_clean(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, *CORRECTION)
    assert findings(root) == set()  # train_ppo_ray hands `logprobs_mode="processed_logprobs"`


def test_openrlhf_actor_setdefault_of_the_mode_too_is_clean(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, SETDEFAULT, SETDEFAULT + '        kwargs.setdefault("logprobs_mode", "processed_logprobs")\n')
    assert findings(root) == set()


def test_openrlhf_actor_setdefault_of_the_mode_gives_way_to_the_correction(tmp_path: Path) -> None:
    # The launch alone: vllm_engine.py checked as Python on its own reads the actor's `**kwargs` without
    # the command line's flag (the value flow's business, not the fork reader's).
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, SETDEFAULT, SETDEFAULT + '        kwargs.setdefault("logprobs_mode", "raw_logprobs")\n')
    assert findings(root, root / OPENRLHF_LAUNCH) == {("RPL003", OPENRLHF_ENGINES, 63)}  # the written raw_logprobs, without the flag
    edit(root / OPENRLHF_LAUNCH, *CORRECTION)
    assert findings(root, root / OPENRLHF_LAUNCH) == set()  # `actor_kwargs["logprobs_mode"]` under `if logprobs_mode:`, over the default


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            '            "enable_sleep_mode": vllm_enable_sleep,\n',
            '            "enable_sleep_mode": vllm_enable_sleep,\n            "return_sampling_mask": False,\n',
        ),
        (".remote(**actor_kwargs)", ".remote(**actor_kwargs, **replay_kwargs)"),  # the actor may get the key another way
        (SETDEFAULT, '        if os.environ.get("OPENRLHF_REPLAY"):\n    ' + SETDEFAULT),
        (SETDEFAULT, '        kwargs.setdefault("return_sampling_mask", os.environ.get("OPENRLHF_REPLAY") == "1")\n'),
        (SETDEFAULT, SETDEFAULT + '        kwargs["return_sampling_mask"] = False\n'),
    ],
    ids=["caller-key-wins", "more-handed-to-the-actor", "under-an-if", "value-from-outside", "written-after"],
)
def test_openrlhf_actor_setdefault_not_in_force_turns_nothing_on(tmp_path: Path, old: str, new: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, old, new)
    assert findings(root) == set()


BUILD = (
    "import os\n"
    "from vllm import LLM\n"
    "\n"
    "\n"
    "def build(mode=None):\n"
    "    kwargs = {'model': 'm', 'return_sampling_mask': True}\n"
    "    if mode:\n"
    "        kwargs['logprobs_mode'] = mode\n"
    "    kwargs.setdefault('logprobs_mode', 'raw_logprobs')\n"
    "    return LLM(**kwargs)\n"
    "\n"
    "\n"
    "llm = build({mode})\n"
)


def test_flow_setdefault_after_a_write_under_an_if_is_in_force_only_where_it_did_not_hold(tmp_path: Path) -> None:
    (tmp_path / "build.py").write_text(BUILD.replace("{mode}", "os.environ.get('MODE')"))
    (found,) = run(tmp_path)
    assert (found["code"], found["location"]["row"]) == ("RPL003", 9)
    assert "(when `mode` is false)" in found["message"]
    (tmp_path / "build.py").write_text(BUILD.replace("{mode}", "'processed_logprobs'"))
    assert run(tmp_path) == []
