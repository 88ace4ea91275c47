"""What rounds 14 and 15 of the held-out forks taught the OpenRLHF, open-instruct and prime-rl fork readers
(tests/test_forks_heldout14.py, tests/test_forks_heldout15.py), and their precision: each test takes a held-out
tree, checks what it reports, and changes it so that the value may not reach vLLM, or does, or reaches it
another way.

OpenRLHF: the actor's own test of an environment variable (`if os.environ.get("X") == "1": kwargs[...] = ...` in
`RolloutRayActor.__init__`) is decided by a Ray job's runtime env (`ray job submit --runtime-env-json` with
`env_vars`), which its actors start with; a shell's export reaches the driver only (the actors may run in a
cluster started elsewhere), and reaches a submitted job not at all.
open-instruct: a `SamplingConfig.top_k` read from an environment variable (`field(default_factory=lambda:
int(os.environ.get("X", "20")))`, or `int(os.getenv(...))` as the default) is the launch's setting of it, at that
setting; a variable the launch does not set is not known (its default in the code is not taken).
prime-rl: the subclass `[inference.vllm]` is typed with (`vllm: ReplayVllmConfig`) and its `model_post_init`
writes (over the file's keys); eval requests, each `[[orchestrator.eval.source]]`'s sampling over the group's."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout14 import CORPUS as CORPUS14
from test_forks_heldout15 import CORPUS as CORPUS15
from test_forks_round2_readers import edit

ORL_ACTOR_CASE = "openrlhf_actor_init_runtime_env_mask_rollout_top_k_default"
ORL_ACTOR_LAUNCH = "examples/scripts/train_grpo_qwen3_replay_ray.sh"
ORL_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
ACTOR_TEST = 'if os.environ.get("OPENRLHF_SAMPLING_REPLAY") == "1":'
RUNTIME_ENV = '"env_vars": {"OPENRLHF_SAMPLING_REPLAY": "1"}'


def actor_tree(tmp_path: Path) -> Path:
    """The round-14 tree with a launch OpenRLHF's parser takes (`--ckpt.output_dir`, not `--train.save_path`)."""
    root = in_repository(CORPUS14 / ORL_ACTOR_CASE, tmp_path / ORL_ACTOR_CASE)
    edit(root / ORL_ACTOR_LAUNCH, "--train.save_path", "--ckpt.output_dir")
    return root


def test_openrlhf_launch_the_parser_refuses_starts_nothing(tmp_path: Path) -> None:
    assert findings(in_repository(CORPUS14 / ORL_ACTOR_CASE, tmp_path / "case")) == set()


@pytest.mark.parametrize(
    "test",
    [
        ACTOR_TEST,
        'if os.getenv("OPENRLHF_SAMPLING_REPLAY", "0") == "1":',
        'if os.environ["OPENRLHF_SAMPLING_REPLAY"] in ("1", "true"):',
    ],
    ids=["environ-get", "getenv-default", "subscript-in"],
)
def test_openrlhf_actor_env_test_decided_by_the_job_runtime_env(tmp_path: Path, test: str) -> None:
    root = actor_tree(tmp_path)
    edit(root / ORL_ENGINES, ACTOR_TEST, test)
    assert findings(root) == {("RPL102", ORL_ACTOR_LAUNCH, 4)}  # OpenRLHF's top_k -1: at the word turning it on


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (RUNTIME_ENV, '"env_vars": {"OPENRLHF_SAMPLING_REPLAY": "0"}'),  # the switch is off
        (', "env_vars": {"OPENRLHF_SAMPLING_REPLAY": "1"}', ""),  # the cluster's environment: not known
        (ACTOR_TEST, "if self.executor is not None:"),  # a test of something else
    ],
    ids=["switch-off", "not-in-runtime-env", "other-test"],
)
def test_openrlhf_actor_env_test_not_decided_stays_silent(tmp_path: Path, old: str, new: str) -> None:
    root = actor_tree(tmp_path)
    edit(root / (ORL_ENGINES if old == ACTOR_TEST else ORL_ACTOR_LAUNCH), old, new)
    assert findings(root) == set()


def test_openrlhf_actor_env_test_not_decided_by_a_driver_export(tmp_path: Path) -> None:
    """`python3 -m openrlhf.cli.train_ppo_ray` after an export: the driver sees it, its actors may not."""
    root = actor_tree(tmp_path)
    edit(
        root / ORL_ACTOR_LAUNCH,
        'ray job submit --address="http://127.0.0.1:8265" \\\n'
        f'   --runtime-env-json=\'{{"working_dir": "/openrlhf", {RUNTIME_ENV}}}\' \\\n   -- python3',
        "export OPENRLHF_SAMPLING_REPLAY=1\npython3",
    )
    assert findings(root) == set()


ORL_DRIVER_CASE = "openrlhf_env_mask_in_create_engines_without_correction_flag"
ORL_DRIVER_LAUNCH = "examples/scripts/train_reinforce_qwen3_replay.sh"
SUBMIT = 'ray job submit --address="http://127.0.0.1:8265" \\\n   --runtime-env-json=\'{"working_dir": "/openrlhf"}\' \\\n   -- python3'


def test_openrlhf_export_does_not_reach_a_submitted_job(tmp_path: Path) -> None:
    assert findings(in_repository(CORPUS15 / ORL_DRIVER_CASE, tmp_path / "case")) == set()


@pytest.mark.parametrize(
    ("new", "line"),
    [
        ("python3", 3),  # run in the shell that exports it: the driver sees it
        (SUBMIT.replace('"/openrlhf"}', '"/openrlhf", "env_vars": {"OPENRLHF_SAMPLING_REPLAY": "1"}}'), 6),
    ],
    ids=["direct-run", "runtime-env"],
)
def test_openrlhf_driver_env_test_decided_where_create_vllm_engines_runs(tmp_path: Path, new: str, line: int) -> None:
    root = in_repository(CORPUS15 / ORL_DRIVER_CASE, tmp_path / "case")
    edit(root / ORL_DRIVER_LAUNCH, SUBMIT, new)
    assert findings(root) == {("RPL003", ORL_DRIVER_LAUNCH, line)}  # vLLM's raw_logprobs default: at the switch


OI_CASE = "oi_launch_exports_top_k_zero_into_env_factory"
OI_UTILS = "open_instruct/vllm_utils.py"
OI_LAUNCH = "scripts/train/debug/single_gpu_replay.sh"
OI_FIELD = 'top_k: int = dataclasses.field(default_factory=lambda: int(os.environ.get("OI_REPLAY_TOP_K", "20")))'
OI_EXPORT = "export OI_REPLAY_TOP_K=0\n"


def oi_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS15 / OI_CASE, tmp_path / OI_CASE)


@pytest.mark.parametrize(
    "field",
    [
        OI_FIELD,
        'top_k: int = dataclasses.field(default_factory=lambda: int(os.getenv("OI_REPLAY_TOP_K", "20")))',
        'top_k: int = field(default_factory=lambda: int(os.environ["OI_REPLAY_TOP_K"]))',
        'top_k: int = int(os.environ.get("OI_REPLAY_TOP_K", "20"))',
    ],
    ids=["case", "getenv", "subscript-field", "plain-default"],
)
def test_oi_top_k_from_the_variable_the_launch_exports(tmp_path: Path, field: str) -> None:
    root = oi_tree(tmp_path)
    edit(root / OI_UTILS, OI_FIELD, field)
    if "field(" in field and "dataclasses.field" not in field:
        edit(root / OI_UTILS, "import dataclasses\n", "import dataclasses\nfrom dataclasses import field\n")
    assert findings(root) == {("RPL102", OI_LAUNCH, 3)}


def test_oi_top_k_from_the_command_env_prefix(tmp_path: Path) -> None:
    root = oi_tree(tmp_path)
    edit(root / OI_LAUNCH, OI_EXPORT, "")
    edit(root / OI_LAUNCH, "python open_instruct/grpo_fast.py", "OI_REPLAY_TOP_K=-1 python open_instruct/grpo_fast.py")
    assert findings(root) == {("RPL102", OI_LAUNCH, 4)}


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (OI_LAUNCH, OI_EXPORT, "export OI_REPLAY_TOP_K=32\n"),
        (OI_LAUNCH, OI_EXPORT, ""),  # not set by the launch: its default in the code is not taken
        (OI_UTILS, '"OI_REPLAY_TOP_K", "20"', '"OI_REPLAY_TOP_K", "0"'),  # ... even one that would conflict
        (OI_UTILS, 'int(os.environ.get("OI_REPLAY_TOP_K", "20"))', 'max(1, int(os.environ.get("OI_REPLAY_TOP_K", "20")))'),
        (OI_LAUNCH, OI_EXPORT, "export OI_REPLAY_TOP_K=none\n"),  # int() raises: the program stops, not judged here
    ],
    ids=["positive", "unset", "unset-zero-default", "clamped", "not-a-number"],
)
def test_oi_top_k_variable_not_known_to_conflict_stays_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = oi_tree(tmp_path)
    if new.startswith('"OI_REPLAY_TOP_K", "0"'):
        edit(root / OI_LAUNCH, OI_EXPORT, "")
    edit(root / path, old, new)
    assert findings(root) == set()


PRIME_CASE = "prime_subclass_post_init_mask_eval_source_top_k_zero"
PRIME_CONFIGS = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"
PRIME_ORCHESTRATOR = "packages/prime-rl-configs/src/prime_rl/configs/orchestrator.py"
PRIME_TOML = "examples/reverse_text/rl_replay.toml"
POST_INIT = "        self.return_sampling_mask = True\n"
EVAL_TOP_K = "temperature = 0.7\ntop_k = 0\n"


def prime_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS15 / PRIME_CASE, tmp_path / PRIME_CASE)


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("", "", 31),  # the case as written
        ("[inference]\n", "[inference]\n[inference.vllm]\nreturn_sampling_mask = false\n", 31),  # post-init wins
        (EVAL_TOP_K, "temperature = 0.7\nextra_body = { top_k = -1 }\n", 31),  # top_k in the source's extra_body
        ("[orchestrator.eval]\n", "[orchestrator.eval]\nsampling.top_k = 0\n", 22),  # the group's, for the sources
    ],
    ids=["case", "file-says-false", "extra-body", "group-sampling"],
)
def test_prime_subclass_post_init_mask_with_eval_top_k(tmp_path: Path, old: str, new: str, line: int) -> None:
    root = prime_tree(tmp_path)
    if old:
        edit(root / PRIME_TOML, old, new)
    if "sampling.top_k" in new:
        edit(root / PRIME_TOML, "[orchestrator.eval.source.sampling]\ntemperature = 0.7\ntop_k = 0\n", "")
    assert findings(root) == {("RPL102", PRIME_TOML, line)}


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (PRIME_TOML, EVAL_TOP_K, "temperature = 0.7\ntop_k = 20\n"),
        (PRIME_TOML, "[orchestrator.eval]\n", "[orchestrator.eval]\nskip_first_step = true\n"),  # may never run
        (PRIME_CONFIGS, POST_INIT, "        if self.enforce_eager:\n            self.return_sampling_mask = True\n"),
        (PRIME_CONFIGS, POST_INIT, "        pass\n"),  # the subclass's default False stands
        (
            PRIME_CONFIGS,
            "vllm: ReplayVllmConfig = Field(default_factory=ReplayVllmConfig)",
            "vllm: VllmConfig = Field(default_factory=VllmConfig)",
        ),  # the subclass is not the table's type
        (PRIME_ORCHESTRATOR, "        if self.top_k is not None:\n", "        if self.top_k is not None and self.top_k > 0:\n"),
    ],
    ids=["eval-top-k-positive", "skip-first-step", "post-init-conditional", "no-post-init-write", "not-the-type", "fork-drops-top-k"],
)
def test_prime_mask_or_eval_top_k_not_known_stays_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = prime_tree(tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()
