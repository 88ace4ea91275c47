"""Precision of what round 10 of the held-out forks taught the fork readers (tests/test_forks_heldout10.py):
each test takes a round-10 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

verl: the fork's writes into the user's `engine_kwargs` before `args` spreads it (a `setdefault`
gives way to the user's key, a write wins over it). SkyRL: a write under a test of an environment
variable is decided by what the launch exports (one it does not export, or exports from outside,
stays unknown). OpenRLHF: the actor's `VLLM_*` write under a test of a parameter its `__init__`
passes from `**kwargs`, decided by the engine dict's key and the caller's switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout10 import CORPUS
from test_forks_round2_readers import edit


def tree(case: str, tmp_path: Path) -> Path:
    return in_repository(CORPUS / case, tmp_path / case)


VERL_CASE = "verl_engine_kwargs_setdefault_mask_launch_raw_logprobs"
VERL_LAUNCH = "recipe/replay/run_qwen3_4b_dapo_replay.sh"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
VERL_ROLLOUT = "verl/trainer/config/rollout/rollout.yaml"
VERL_SETDEFAULT = '        engine_kwargs.setdefault("return_sampling_mask", True)\n'
RAW_LOGPROBS = {("RPL003", VERL_LAUNCH, 39)}


@pytest.mark.parametrize(
    "spelling",
    [
        '        engine_kwargs["return_sampling_mask"] = True\n',
        "        engine_kwargs.update(return_sampling_mask=True)\n",
        '        engine_kwargs |= {"return_sampling_mask": True}\n',
    ],
)
def test_verl_fork_write_into_engine_kwargs_reaches_vllm(tmp_path: Path, spelling: str) -> None:
    root = tree(VERL_CASE, tmp_path)
    assert findings(root) == RAW_LOGPROBS
    edit(root / VERL_SERVER, VERL_SETDEFAULT, spelling)
    assert findings(root) == RAW_LOGPROBS


def test_verl_fork_setdefault_gives_way_to_the_users_key_a_write_does_not(tmp_path: Path) -> None:
    root = tree(VERL_CASE, tmp_path)
    edit(root / VERL_ROLLOUT, "  vllm: {}\n", "  vllm:\n    return_sampling_mask: false\n")
    assert findings(root) == set()  # the fork's rollout.yaml turns it off, under the setdefault's key
    edit(root / VERL_SERVER, VERL_SETDEFAULT, '        engine_kwargs["return_sampling_mask"] = True\n')
    assert findings(root) == RAW_LOGPROBS  # written over the user's


def test_verl_fork_setdefault_gives_way_to_the_launchs_engine_kwargs(tmp_path: Path) -> None:
    root = tree(VERL_CASE, tmp_path)
    override = "    trainer.total_epochs=10 \\\n    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask="
    edit(root / VERL_LAUNCH, "    trainer.total_epochs=10", override + "False")
    assert findings(root) == set()
    edit(root / VERL_LAUNCH, "return_sampling_mask=False", "return_sampling_mask=True")
    assert findings(root) == RAW_LOGPROBS


def test_verl_fork_write_under_a_rollout_switch_is_decided_by_the_launch(tmp_path: Path) -> None:
    root = tree(VERL_CASE, tmp_path)
    switched = '        if self.config.get("sampling_replay", False):\n    ' + VERL_SETDEFAULT
    edit(root / VERL_SERVER, VERL_SETDEFAULT, switched)
    assert findings(root) == set()  # off by the code's default
    edit(
        root / VERL_LAUNCH,
        "    trainer.total_epochs=10",
        "    trainer.total_epochs=10 \\\n    +actor_rollout_ref.rollout.sampling_replay=True",
    )
    assert findings(root) == RAW_LOGPROBS


@pytest.mark.parametrize(
    "after",
    [
        "        engine_kwargs = {}\n",  # the user's keys and the fork's dropped
        "        engine_kwargs = normalize_engine_kwargs(engine_kwargs)\n",  # bound anew, not read here
        "        validate_engine_kwargs(engine_kwargs)\n",  # handed on: it may change it
    ],
)
def test_verl_fork_engine_kwargs_changed_before_the_spread_keeps_the_launch_open(tmp_path: Path, after: str) -> None:
    root = tree(VERL_CASE, tmp_path)
    edit(root / VERL_SERVER, VERL_SETDEFAULT, VERL_SETDEFAULT + after)
    assert findings(root) == set()


PREPARE = "        self._prepare_engine_kwargs(engine_kwargs)\n"
ADDRESS = "    def get_server_address(self):\n"


def prepared(body: str) -> str:
    """A method of verl's server that the fork hands the user's dict (verl 0.9.1's own
    `_preprocess_engine_kwargs`, which only version and checkpoint settings write into)."""
    return "    def _prepare_engine_kwargs(self, engine_kwargs: dict) -> None:\n" + body + "\n" + ADDRESS


def test_verl_fork_hands_engine_kwargs_to_its_own_method_that_writes_no_replay_key(tmp_path: Path) -> None:
    root = tree(VERL_CASE, tmp_path)
    edit(root / VERL_SERVER, VERL_SETDEFAULT, VERL_SETDEFAULT + PREPARE)
    body = '        if self.config.get("limit_images"):\n            engine_kwargs.setdefault("mm_processor_cache_gb", 0)\n'
    edit(
        root / VERL_SERVER,
        ADDRESS,
        prepared(body + '        if int(engine_kwargs.get("data_parallel_size") or 1) > 1:\n            raise ValueError("dp")\n'),
    )
    assert findings(root) == RAW_LOGPROBS  # the mask still reaches vLLM (verl 0.9.1 made this launch open)


@pytest.mark.parametrize(
    "body",
    [
        '        engine_kwargs["return_sampling_mask"] = True\n',
        '        engine_kwargs.setdefault("return_sampling_mask", True)\n',
        '        if self.config.get("sampling_replay", True):\n            engine_kwargs.update(return_sampling_mask=True)\n',
    ],
)
def test_verl_fork_method_writing_into_engine_kwargs_reaches_vllm(tmp_path: Path, body: str) -> None:
    root = tree(VERL_CASE, tmp_path)
    edit(root / VERL_SERVER, VERL_SETDEFAULT, PREPARE)
    assert findings(root) == set()  # no such method: not read, the launch stays open
    edit(root / VERL_SERVER, ADDRESS, prepared(body))
    assert findings(root) == RAW_LOGPROBS


@pytest.mark.parametrize(
    "body",
    [
        '        engine_kwargs.pop("return_sampling_mask", None)\n',
        "        validate_engine_kwargs(engine_kwargs)\n",  # handed on again: it may change it
        "        if self.needs_reset():\n            engine_kwargs.clear()\n",  # under a test not read here
    ],
)
def test_verl_fork_method_that_may_drop_the_mask_keeps_the_launch_open(tmp_path: Path, body: str) -> None:
    root = tree(VERL_CASE, tmp_path)
    edit(root / VERL_SERVER, VERL_SETDEFAULT, VERL_SETDEFAULT + PREPARE)
    edit(root / VERL_SERVER, ADDRESS, prepared(body))
    assert findings(root) == set()


SKYRL_CASE = "skyrl_env_switch_mask_launch_logits_processor"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay_think_budget.sh"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_EXPORT = "export SKYRL_SAMPLING_REPLAY=1\n"
SKYRL_TEST = 'if os.environ.get("SKYRL_SAMPLING_REPLAY", "0") == "1":'
PROCESSOR = {("RPL001", SKYRL_LAUNCH, 21)}


@pytest.mark.parametrize(
    "test",
    [
        'if os.getenv("SKYRL_SAMPLING_REPLAY") == "1":',
        'if os.environ["SKYRL_SAMPLING_REPLAY"] == "1":',
        'if os.environ.get("SKYRL_SAMPLING_REPLAY", "0") in ("1", "true"):',
    ],
)
def test_skyrl_fork_environment_switch_spellings(tmp_path: Path, test: str) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    assert findings(root) == PROCESSOR
    edit(root / SKYRL_UTILS, SKYRL_TEST, test)
    assert findings(root) == PROCESSOR


def test_skyrl_fork_environment_switch_on_the_commands_own_prefix(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, SKYRL_EXPORT, "\n")
    edit(root / SKYRL_LAUNCH, "uv run --isolated", "SKYRL_SAMPLING_REPLAY=1 uv run --isolated")
    assert findings(root) == PROCESSOR


@pytest.mark.parametrize(
    "export",
    [
        "",  # not exported: the shell that runs the script may have it or not
        "export SKYRL_SAMPLING_REPLAY=0\n",
        'export SKYRL_SAMPLING_REPLAY="${REPLAY}"\n',  # from outside the tree
        "export SKYRL_SAMPLING_REPLAY_DEBUG=1\n",
    ],
)
def test_skyrl_fork_environment_switch_not_known_on_turns_nothing_on(tmp_path: Path, export: str) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, SKYRL_EXPORT, export)
    assert findings(root) == set()


def test_skyrl_fork_environment_switch_mask_sits_at_the_export(tmp_path: Path) -> None:
    # A default that conflicts with the mask (SkyRL's top_k -1) sits on the line that turns it on.
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, "  generator.inference_engine.engine_init_kwargs.logits_processors=", "  +generator.unused=")
    edit(root / SKYRL_LAUNCH, "  generator.sampling_params.top_k=40 \\\n", "")
    assert ("RPL102", SKYRL_LAUNCH, 9) in findings(root)


OPENRLHF_CASE = "openrlhf_replay_kwargs_helper_determinism_v1_runner_env"
OPENRLHF_LAUNCH = "examples/scripts/train_grpo_ray_replay_deterministic.sh"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
DETERMINISM = "   --train.full_determinism_enable \\\n"
RUNNER_CALL = 'self._configure_vllm_env(version, vllm, kwargs.pop("full_determinism", False))'
RUNNER_REMOVED = {("RPL206", OPENRLHF_ENGINES, 102)}


@pytest.mark.parametrize(
    "call",
    [
        'self._configure_vllm_env(version, vllm, kwargs.get("full_determinism", False))',
        'self._configure_vllm_env(version, vllm, full_determinism=kwargs.pop("full_determinism", False))',
        'self._configure_vllm_env(version, vllm, kwargs["full_determinism"])',
    ],
)
def test_openrlhf_actor_environment_switch_spellings(tmp_path: Path, call: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    assert findings(root) == RUNNER_REMOVED
    edit(root / OPENRLHF_ENGINES, RUNNER_CALL, call)
    assert findings(root) == RUNNER_REMOVED


def test_openrlhf_actor_environment_switch_in_init_itself(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, '            os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n', "")
    own = '        if kwargs.get("full_determinism", False):\n            os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n'
    edit(root / OPENRLHF_ENGINES, "        " + RUNNER_CALL + "\n", own + "        " + RUNNER_CALL + "\n")
    assert findings(root) == {("RPL206", OPENRLHF_ENGINES, 52)}
    edit(root / OPENRLHF_LAUNCH, DETERMINISM, "")
    assert findings(root) == set()


def test_openrlhf_actor_environment_switch_off_without_the_flag(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, DETERMINISM, "")
    assert findings(root) == set()
    edit(root / OPENRLHF_ENGINES, "        if full_determinism:\n", "        if not full_determinism:\n")
    assert findings(root) == RUNNER_REMOVED  # the other branch, taken without the flag


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('            "full_determinism": full_determinism,\n', '            "full_determinism": os.environ.get("DET") == "1",\n'),
        ("        if full_determinism:\n", "        if full_determinism and os.environ.get('DET'):\n"),
        ("        " + RUNNER_CALL, "        if kwargs.get('seed'):\n            " + RUNNER_CALL),
    ],
    ids=["key-not-read", "test-not-read", "call-under-an-if"],
)
def test_openrlhf_actor_environment_switch_not_decided_writes_nothing(tmp_path: Path, old: str, new: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, old, new)
    assert findings(root) == set()
