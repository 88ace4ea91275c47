"""What rounds 17 and 18 of the held-out forks taught the OpenRLHF, open-instruct and prime-rl fork readers
(tests/test_forks_heldout17.py, tests/test_forks_heldout18.py), and their precision: each test takes a held-out
tree, checks what it reports, and changes it so that the value may not reach vLLM, or does, or reaches it
another way.

OpenRLHF: a fork that assigns the correction's own variable before `if logprobs_mode:` (`logprobs_mode =
"processed_logprobs"` under its test of an environment variable, or always) writes logprobs_mode and max_logprobs
with that value where its test holds, over the command line's; its test is decided like the fork's other tests.
OpenRLHF: a keyword the fork hands the actor beside the engine dict (`.remote(**actor_kwargs, k=v)`, or bound
first, `spawn = functools.partial(RolloutRayActor.options(...).remote, k=v)` then `spawn(**actor_kwargs)`) reaches
vLLM like a key of the dict, at its line, under the tests the call sits under.
open-instruct: a request's `"top_k": int(os.environ["X"])` is read in the engine actor's process: the launch's
variable, unless the actor's `runtime_env` names it (a literal: that value, at its line; a read of the same variable:
the launch's; anything else: not known).
prime-rl: a `to_namespace` test of an environment variable the launch does not set, read with a literal default
(`os.environ.get("X", "1") == "1"`, `os.getenv`), holds by that default, as the program run as written reads it (a
read without a default, or a variable the launch sets to a value not known, stays open).
prime-rl: a later line of `setup_vllm_env` that may remove the variable it pinned (`os.environ.pop(NAME, None)`,
`del os.environ[NAME]`, under a condition or not) leaves the variable's value unknown: no finding rests on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout17 import CORPUS as CORPUS17
from test_forks_heldout18 import CORPUS as CORPUS18
from test_forks_round2_readers import edit

PRIME_POP_CASE = "prime_config_field_mask_pops_v1_pin_clean"
PRIME_SERVER = "src/prime_rl/inference/server.py"
PRIME_POP = '        os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)'
PRIME_PIN = '    os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")'


@pytest.mark.parametrize(
    "removal",
    [
        PRIME_POP,
        '        del os.environ["VLLM_USE_V2_MODEL_RUNNER"]',
        '        os.environ.pop("VLLM_USE_V2_MODEL_RUNNER")',
    ],
    ids=["pop-default", "del", "pop"],
)
def test_prime_pin_removed_by_a_later_line_is_not_reported(tmp_path: Path, removal: str) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, PRIME_POP, removal)
    assert findings(root) == set()


def test_prime_pin_removed_unconditionally_is_not_reported(tmp_path: Path) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, "    if config.vllm.return_sampling_mask:\n" + PRIME_POP, PRIME_POP[4:])
    assert findings(root) == set()


@pytest.mark.parametrize(
    "removal",
    [
        "",  # the pin kept: vLLM 0.34.0 refuses the variable
        '        os.environ.pop("VLLM_ENFORCE_STRICT_TOOL_CALLING", None)',  # another variable removed
        '        print(os.environ.pop("VLLM_USE_V2_MODEL_RUNNER_X", None))',
    ],
    ids=["kept", "other-variable", "other-name"],
)
def test_prime_pin_not_removed_is_reported(tmp_path: Path, removal: str) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, PRIME_POP, removal or "        pass")
    assert findings(root) == {("RPL206", PRIME_SERVER, 17)}


def test_prime_pin_written_after_the_removal_is_reported(tmp_path: Path) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, PRIME_POP, PRIME_POP + "\n" + PRIME_PIN)
    assert findings(root) == {("RPL206", PRIME_SERVER, 21)}


ORL_ENV_CASE = "openrlhf_env_flag_mask_fork_top_k_clean"
ORL_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
ORL_ENV_LAUNCH = "examples/scripts/train_reinforce_baseline_replay.sh"
ORL_REBIND = '            logprobs_mode = "processed_logprobs"\n'
ORL_TEST = '        if os.environ.get("OPENRLHF_SAMPLING_REPLAY", "0") == "1":\n'
ORL_MASK = '            actor_kwargs["return_sampling_mask"] = True\n'
ORL_RUNTIME_ENV = '"env_vars": {"OPENRLHF_SAMPLING_REPLAY": "1"}'


def orl_env_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS17 / ORL_ENV_CASE, tmp_path / ORL_ENV_CASE)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("", ""),
        (ORL_REBIND, ORL_REBIND.replace('"processed_logprobs"', "'processed_logprobs'")),
        (ORL_TEST + ORL_MASK + ORL_REBIND, '        logprobs_mode = "processed_logprobs"\n' + ORL_TEST + ORL_MASK),  # always
        (ORL_TEST, ORL_TEST.replace('os.environ.get("OPENRLHF_SAMPLING_REPLAY", "0")', 'os.getenv("OPENRLHF_SAMPLING_REPLAY")')),
    ],
    ids=["case", "single-quotes", "unconditional", "getenv"],
)
def test_openrlhf_fork_rebinding_the_correction_sets_logprobs_mode(tmp_path: Path, old: str, new: str) -> None:
    root = orl_env_tree(tmp_path)
    if old:
        edit(root / ORL_ENGINES, old, new)
    assert findings(root) == set()


@pytest.mark.parametrize(
    "rebind",
    ["", '            logprobs_mode = "raw_logprobs"\n'],
    ids=["no-rebind", "raw-logprobs"],
)
def test_openrlhf_fork_mask_without_the_correction_is_reported(tmp_path: Path, rebind: str) -> None:
    root = orl_env_tree(tmp_path)
    edit(root / ORL_ENGINES, ORL_REBIND, rebind)
    assert findings(root) == {("RPL003", ORL_ENV_LAUNCH, 78)}  # at the runtime env's variable that turns it on


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (ORL_ENV_LAUNCH, ORL_RUNTIME_ENV, '"env_vars": {"OTHER": "1"}'),  # the variable not known
        (ORL_ENGINES, ORL_REBIND, '            logprobs_mode = os.environ.get("MODE")\n'),  # a value not read
        (ORL_ENGINES, ORL_REBIND, ORL_REBIND + '        else:\n            logprobs_mode = "raw_logprobs"\n'),  # two
    ],
    ids=["variable-unknown", "value-not-read", "two-rebinds"],
)
def test_openrlhf_fork_rebinding_not_known_stays_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = orl_env_tree(tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()


ORL_PARTIAL_CASE = "openrlhf_partial_remote_mask_without_correction_flag"
ORL_PARTIAL_LAUNCH = "examples/scripts/train_reinforce_baseline_replay.sh"
ORL_PARTIAL = "functools.partial("
ORL_SPAWN = "        vllm_engines.append(spawn_engine(**actor_kwargs))\n"
ORL_PARTIAL_MASK = "            return_sampling_mask=True,\n"
ORL_REMOTE = """        spawn_engine = functools.partial(
            RolloutRayActor.options(
                num_cpus=num_gpus,
                num_gpus=num_gpus,
                scheduling_strategy=scheduling_strategy,
            ).remote,
            return_sampling_mask=True,
        )
"""


def orl_partial_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS17 / ORL_PARTIAL_CASE, tmp_path / ORL_PARTIAL_CASE)


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("", "", 310),
        (ORL_PARTIAL, "partial(", 310),  # `from functools import partial`: the name alone
        (
            ORL_PARTIAL_MASK + "        )\n" + ORL_SPAWN,
            "        )\n" + ORL_SPAWN.replace("**actor_kwargs", "**actor_kwargs, return_sampling_mask=True"),
            311,
        ),
        (
            ORL_REMOTE + ORL_SPAWN,
            "        vllm_engines.append(\n            RolloutRayActor.options(num_gpus=num_gpus).remote(\n"
            "                **actor_kwargs,\n                return_sampling_mask=True,\n            )\n        )\n",
            307,
        ),
    ],
    ids=["case", "partial-name", "call-keyword", "remote-keyword"],
)
def test_openrlhf_fork_keyword_beside_the_dict_reaches_vllm(tmp_path: Path, old: str, new: str, line: int) -> None:
    root = orl_partial_tree(tmp_path)
    if old:
        edit(root / ORL_ENGINES, old, new)
    assert findings(root) == {("RPL003", ORL_ENGINES, line)}  # vLLM's default raw_logprobs: at the mask's line


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (ORL_PARTIAL_LAUNCH, "   --vllm.enforce_eager\n", "   --vllm.enforce_eager\n   --algo.advantage.is_correction_enable\n"),
        (ORL_ENGINES, ORL_PARTIAL_MASK, "            return_sampling_mask=False,\n"),
        (ORL_ENGINES, ORL_SPAWN, '        if os.environ.get("MASK") == "1":\n    ' + ORL_SPAWN),  # a variable not known
        (ORL_ENGINES, "            ).remote,\n", "            ).start,\n"),  # not the actor's start
    ],
    ids=["correction-flag", "mask-false", "under-unknown-test", "not-remote"],
)
def test_openrlhf_fork_keyword_beside_the_dict_precision(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = orl_partial_tree(tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()


PRIME_ENV_CASE = "prime_namespace_env_mask_eval_greedy_toml"
PRIME_ENV_LAUNCH = "scripts/rl_replay.sh"
PRIME_ENV_TOML = "configs/replay/rl.toml"
PRIME_ENV_CONFIGS = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"
PRIME_ENV_TEST = 'os.environ.get("PRIME_RL_SAMPLING_REPLAY", "1") == "1"'
PRIME_GREEDY_EVAL = {("RPL101", PRIME_ENV_TOML, 38)}  # `temperature = 0.0` of [orchestrator.eval.sampling]


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("", "", ""),
        (PRIME_ENV_CONFIGS, PRIME_ENV_TEST, 'os.getenv("PRIME_RL_SAMPLING_REPLAY", "1") == "1"'),
        (PRIME_ENV_CONFIGS, PRIME_ENV_TEST, 'os.environ.get("PRIME_RL_SAMPLING_REPLAY", "1") != "0"'),
        (PRIME_ENV_LAUNCH, "uv run rl", "PRIME_RL_SAMPLING_REPLAY=1 uv run rl"),
    ],
    ids=["case", "getenv", "not-zero", "set-by-launch"],
)
def test_prime_env_switch_holds_by_the_reads_default(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = in_repository(CORPUS18 / PRIME_ENV_CASE, tmp_path / PRIME_ENV_CASE)
    if path:
        edit(root / path, old, new)
    assert findings(root) == PRIME_GREEDY_EVAL


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (PRIME_ENV_LAUNCH, "uv run rl", "PRIME_RL_SAMPLING_REPLAY=0 uv run rl"),
        (PRIME_ENV_LAUNCH, "uv run rl", 'PRIME_RL_SAMPLING_REPLAY="${REPLAY}" uv run rl'),  # a value not known
        (PRIME_ENV_CONFIGS, PRIME_ENV_TEST, 'os.environ.get("PRIME_RL_SAMPLING_REPLAY", "0") == "1"'),
        (PRIME_ENV_CONFIGS, PRIME_ENV_TEST, 'os.environ.get("PRIME_RL_SAMPLING_REPLAY") == "1"'),  # no default
        (PRIME_ENV_TOML, "temperature = 0.0\n", "temperature = 0.7\n"),
    ],
    ids=["set-off", "set-unknown", "default-off", "no-default", "eval-sampled"],
)
def test_prime_env_switch_off_or_not_known_stays_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = in_repository(CORPUS18 / PRIME_ENV_CASE, tmp_path / PRIME_ENV_CASE)
    edit(root / path, old, new)
    assert findings(root) == set()


OI_ENV_CASE = "oi_setup_engine_mask_launcher_env_top_k"
OI_ENV_LAUNCH = "scripts/train/debug/single_gpu_replay.sh"
OI_UTILS = "open_instruct/vllm_utils.py"
OI_EXPORT = "export OI_REPLAY_TOP_K=-1\n"
OI_READ = 'int(os.environ["OI_REPLAY_TOP_K"])'
OI_RELAY = '"OI_REPLAY_TOP_K": os.environ.get("OI_REPLAY_TOP_K", "20"),'


def oi_env_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS18 / OI_ENV_CASE, tmp_path / OI_ENV_CASE)


@pytest.mark.parametrize(
    ("path", "old", "new", "found"),
    [
        ("", "", "", ("RPL102", OI_ENV_LAUNCH, 5)),
        (OI_UTILS, OI_READ, 'int(os.getenv("OI_REPLAY_TOP_K", "20"))', ("RPL102", OI_ENV_LAUNCH, 5)),
        (OI_ENV_LAUNCH, OI_EXPORT, "export OI_REPLAY_TOP_K=0\n", ("RPL102", OI_ENV_LAUNCH, 5)),
        (OI_UTILS, OI_RELAY, '"OI_REPLAY_TOP_K": os.environ["OI_REPLAY_TOP_K"],', ("RPL102", OI_ENV_LAUNCH, 5)),
        (OI_UTILS, OI_RELAY, '"OI_REPLAY_TOP_K": "-1",', ("RPL102", OI_UTILS, 1270)),  # the actor's own value
    ],
    ids=["case", "getenv", "zero", "relay-subscript", "runtime-env-literal"],
)
def test_oi_request_top_k_read_in_the_actor(tmp_path: Path, path: str, old: str, new: str, found: tuple[str, str, int]) -> None:
    root = oi_env_tree(tmp_path)
    if path:
        edit(root / path, old, new)
    assert findings(root) == {found}


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (OI_ENV_LAUNCH, OI_EXPORT, "export OI_REPLAY_TOP_K=20\n"),
        (OI_ENV_LAUNCH, OI_EXPORT, ""),  # set outside the tree, or not at all
        (OI_ENV_LAUNCH, OI_EXPORT, 'export OI_REPLAY_TOP_K="${TOP_K}"\n'),
        (OI_UTILS, OI_RELAY, '"OI_REPLAY_TOP_K": "20",'),  # the actor's own value wins over the launch's -1
        (OI_UTILS, OI_RELAY, '"OI_REPLAY_TOP_K": str(top_k_for(pretrain)),'),  # a value not read here
    ],
    ids=["export-20", "not-exported", "export-unknown", "runtime-env-20", "runtime-env-computed"],
)
def test_oi_request_top_k_read_in_the_actor_precision(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = oi_env_tree(tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()
