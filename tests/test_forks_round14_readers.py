"""What rounds 14 and 15 of the held-out forks taught the fork readers of SkyRL, NeMo-RL and verl
(tests/test_forks_heldout14.py, tests/test_forks_heldout15.py), and its precision: the mask turned on by an
environment variable that the fork's own code reads, set by the launch (`export`, a `VAR=1` prefix). Each test takes
a round's tree, checks what it reports, and changes it so that the variable is exported another way, not at all, with
another value or with a value from outside: a variable the launch does not set stays unknown, so the finding goes.

- SkyRL: a helper of `utils.py` that gives its dict only under a test (`if os.environ.get("X", "0") != "1": return
  {}`, then `return {...}`), spread onto vLLM's namespace; and an `InferenceEngineConfig` field whose default is read
  from the environment (`field(default_factory=lambda: os.getenv("X", "0") == "1")`) that an `if ie_cfg.<field>:`
  tests.
- NeMo-RL: the worker's write into its engine dict under `if os.environ.get("X", "0") == "1":`.
- verl: `self.X = os.environ.get("V", "0") == "1"` in the server's `__init__`, put into `launch_server`'s `args`.
  (The held-out verl case runs that launch through a wrapper script, `bash run_base.sh <overrides> "$@"`, which the
  shell reader follows since h-fxP2: tests/test_shell_round14_wrapper_scripts.py; here the recipe is run directly.)

Round 15's SkyRL case keeps both RPL101 and RPL102 at the mask line. The flow corpus reports a greedy request as
RPL101 alone when its written `top_k > 0` is one vLLM resets (`sampling_params.py` 0.34.0:619-624), so only the
temperature needs changing; here SkyRL sends its own `top_k -1` with the greedy eval requests, which fails vLLM's next
check (`v1/engine/input_processor.py:180-190`) once the temperature is fixed, and the forks corpus has reported
SkyRL's greedy eval defaults as RPL101 and RPL102 since round 2 (tests/test_forks_heldout3.py). So the expectation
stands as written."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_forks_heldout14 as round14
import test_forks_heldout15 as round15
from forks_trees import findings, in_repository
from test_forks_round2_readers import edit

SKYRL_HELPER_CASE = "skyrl_env_helper_overrides_launch_adaptive_speculative"
SKYRL_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_NGRAM_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay_ngram.sh"
ADAPTIVE = {("RPL002", SKYRL_NGRAM_LAUNCH, 23)}
HELPER = (
    '    if os.environ.get("SKYRL_SAMPLING_REPLAY", "0") != "1":\n'
    "        return {}\n"
    '    return {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}\n'
)
SKYRL_EXPORT = "export SKYRL_SAMPLING_REPLAY=1\n"


def tree(corpus: Path, case: str, tmp_path: Path) -> Path:
    return in_repository(corpus / case, tmp_path / case)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("", ""),  # the case as written
        (
            HELPER,
            '    if os.getenv("SKYRL_SAMPLING_REPLAY") == "1":\n'
            '        return dict(return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
            "    return {}\n",
        ),
        (HELPER, HELPER.replace('os.environ.get("SKYRL_SAMPLING_REPLAY", "0")', 'os.environ["SKYRL_SAMPLING_REPLAY"]')),
    ],
    ids=["case", "dict-under-the-test", "environ-subscript"],
)
def test_skyrl_helper_switched_by_an_exported_variable(tmp_path: Path, old: str, new: str) -> None:
    root = tree(round14.CORPUS, SKYRL_HELPER_CASE, tmp_path)
    if old:
        edit(root / SKYRL_ARGS, old, new)
    assert findings(root) == ADAPTIVE


def test_skyrl_helper_switched_by_a_command_prefix(tmp_path: Path) -> None:
    root = tree(round14.CORPUS, SKYRL_HELPER_CASE, tmp_path)
    edit(root / SKYRL_NGRAM_LAUNCH, SKYRL_EXPORT, "")
    edit(root / SKYRL_NGRAM_LAUNCH, "uv run --isolated", "SKYRL_SAMPLING_REPLAY=1 uv run --isolated")
    assert findings(root) == {("RPL002", SKYRL_NGRAM_LAUNCH, 22)}  # a line up: the export is gone


@pytest.mark.parametrize(
    "export",
    ["", "export SKYRL_SAMPLING_REPLAY=0\n", 'export SKYRL_SAMPLING_REPLAY="$REPLAY"\n'],
    ids=["not-exported", "exported-off", "from-outside"],
)
def test_skyrl_helper_under_a_variable_not_set_on_stays_silent(tmp_path: Path, export: str) -> None:
    root = tree(round14.CORPUS, SKYRL_HELPER_CASE, tmp_path)
    edit(root / SKYRL_NGRAM_LAUNCH, SKYRL_EXPORT, export)
    assert findings(root) == set()


NEMO_CASE = "nemo_env_mask_in_worker_launch_top_k_minus_one"
NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_LAUNCH = "examples/run_grpo_math_replay.sh"
NEMO_TEST = 'if os.environ.get("NRL_SAMPLING_REPLAY", "0") == "1":'
NEMO_EXPORT = "export NRL_SAMPLING_REPLAY=1\n"
TOP_K_AT_LAUNCH = {("RPL102", NEMO_LAUNCH, 10)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("", ""),  # the case as written
        (NEMO_TEST, 'if os.getenv("NRL_SAMPLING_REPLAY") in ("1", "true"):'),
        (NEMO_TEST, 'if os.environ.get("NRL_SAMPLING_REPLAY", "0") == "1" and self.cfg["vllm_cfg"].get("replay_ok", True):'),
    ],
    ids=["case", "getenv-in-tuple", "with-a-recipe-default"],
)
def test_nemo_worker_write_under_an_exported_variable(tmp_path: Path, old: str, new: str) -> None:
    root = tree(round14.CORPUS, NEMO_CASE, tmp_path)
    if old:
        edit(root / NEMO_WORKER, old, new)
    assert findings(root) == TOP_K_AT_LAUNCH


def test_nemo_worker_switch_given_as_a_command_prefix(tmp_path: Path) -> None:
    root = tree(round14.CORPUS, NEMO_CASE, tmp_path)
    edit(root / NEMO_LAUNCH, NEMO_EXPORT + "uv run", "NRL_SAMPLING_REPLAY=1 uv run")
    assert findings(root) == {("RPL102", NEMO_LAUNCH, 9)}


@pytest.mark.parametrize(
    "export",
    ["", "export NRL_SAMPLING_REPLAY=0\n", "export NRL_SAMPLING_REPLAY=$1\n"],
    ids=["not-exported", "exported-off", "from-outside"],
)
def test_nemo_worker_write_under_a_variable_not_set_on_stays_silent(tmp_path: Path, export: str) -> None:
    root = tree(round14.CORPUS, NEMO_CASE, tmp_path)
    edit(root / NEMO_LAUNCH, NEMO_EXPORT, export)
    assert findings(root) == set()


def test_nemo_worker_write_under_an_exported_variable_that_is_negated_stays_silent(tmp_path: Path) -> None:
    root = tree(round14.CORPUS, NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_TEST, NEMO_TEST.replace("==", "!="))
    assert findings(root) == set()


SKYRL_FIELD_CASE = "skyrl_env_factory_field_mask_eval_sampling_default_greedy"
SKYRL_CONFIG = "skyrl/train/config/config.py"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
FIELD = 'sampling_replay: bool = field(default_factory=lambda: os.getenv("SKYRL_SAMPLING_REPLAY", "0") == "1")'
GREEDY_EVAL = {("RPL101", SKYRL_ARGS, 127), ("RPL102", SKYRL_ARGS, 127)}


@pytest.mark.parametrize(
    "new",
    [
        FIELD,  # the case as written
        FIELD.replace('os.getenv("SKYRL_SAMPLING_REPLAY", "0") == "1"', 'os.environ.get("SKYRL_SAMPLING_REPLAY", "") in ("1", "true")'),
        FIELD.replace("field(default_factory=lambda: ", "dataclasses.field(default_factory=lambda: "),
    ],
    ids=["case", "environ-get-in-tuple", "dataclasses-field"],
)
def test_skyrl_config_field_read_from_an_exported_variable(tmp_path: Path, new: str) -> None:
    root = tree(round15.CORPUS, SKYRL_FIELD_CASE, tmp_path)
    edit(root / SKYRL_CONFIG, FIELD, new)
    assert findings(root) == GREEDY_EVAL


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (SKYRL_EXPORT, ""),  # not exported: the field's default is not known
        (SKYRL_EXPORT, "export SKYRL_SAMPLING_REPLAY=0\n"),
        (SKYRL_EXPORT, "export SKYRL_SAMPLING_REPLAY=${REPLAY:?}\n"),
        ("  trainer.epochs=20 \\\n", "  trainer.epochs=20 \\\n  generator.inference_engine.sampling_replay=false \\\n"),
    ],
    ids=["not-exported", "exported-off", "from-outside", "launch-turns-it-off"],
)
def test_skyrl_config_field_not_turned_on_stays_silent(tmp_path: Path, old: str, new: str) -> None:
    root = tree(round15.CORPUS, SKYRL_FIELD_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, old, new)
    assert findings(root) == set()


VERL_CASE = "verl_server_init_env_mask_wrapper_raw_logprobs"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
VERL_BASE = "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_base.sh"
VERL_WRAPPER = "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"
VERL_READ = 'self.return_sampling_mask = os.environ.get("VERL_RETURN_SAMPLING_MASK", "0") == "1"'
RAW = "    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \\\n"


def verl_direct(tmp_path: Path, export: str) -> Path:
    """The case's base recipe run directly, with the raw_logprobs override and `export` written in it (the wrapper,
    whose own launch of the recipe tests/test_shell_round14_wrapper_scripts.py judges, removed)."""
    root = tree(round14.CORPUS, VERL_CASE, tmp_path)
    (root / VERL_WRAPPER).unlink()
    edit(root / VERL_BASE, "set -x\n", "set -x\n" + export)
    edit(root / VERL_BASE, "    actor_rollout_ref.rollout.top_k=50 \\\n", "    actor_rollout_ref.rollout.top_k=50 \\\n" + RAW)
    return root


def test_verl_server_attribute_read_from_an_exported_variable(tmp_path: Path) -> None:
    root = verl_direct(tmp_path, "export VERL_RETURN_SAMPLING_MASK=1\n")
    assert findings(root) == {("RPL003", VERL_BASE, 22)}


def test_verl_server_attribute_read_with_getenv(tmp_path: Path) -> None:
    root = verl_direct(tmp_path, "export VERL_RETURN_SAMPLING_MASK=1\n")
    edit(
        root / VERL_SERVER,
        VERL_READ,
        VERL_READ.replace('os.environ.get("VERL_RETURN_SAMPLING_MASK", "0")', 'os.getenv("VERL_RETURN_SAMPLING_MASK")'),
    )
    assert findings(root) == {("RPL003", VERL_BASE, 22)}


@pytest.mark.parametrize(
    "export",
    ["", "export VERL_RETURN_SAMPLING_MASK=0\n", 'export VERL_RETURN_SAMPLING_MASK="$MASK"\n'],
    ids=["not-exported", "exported-off", "from-outside"],
)
def test_verl_server_attribute_not_set_on_stays_silent(tmp_path: Path, export: str) -> None:
    assert findings(verl_direct(tmp_path, export)) == set()


def test_verl_server_attribute_bound_twice_stays_silent(tmp_path: Path) -> None:
    root = verl_direct(tmp_path, "export VERL_RETURN_SAMPLING_MASK=1\n")
    edit(
        root / VERL_SERVER,
        VERL_READ,
        VERL_READ + "\n        self.return_sampling_mask = self.return_sampling_mask and self._replay_supported()",
    )
    assert findings(root) == set()
