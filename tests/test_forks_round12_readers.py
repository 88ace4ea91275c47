"""What round 12 of the held-out forks taught the fork readers (tests/test_forks_heldout12.py), and its precision:
each test takes a round-12 tree, checks what it reports, and changes it so that the value may not reach vLLM,
or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

OpenRLHF: `create_vllm_engines`' write under a test of an environment variable is decided by what the launch sets
where that function runs (the `ray job submit` runtime env's `env_vars`, or the script's exports for a plain
`python -m`); a variable the launch does not set, or sets from outside, leaves it unknown. A request key the fork's
train_ppo_ray.py passes with the trainer's generate kwargs from an option of its own (`top_k=args.rollout.top_k`) is
the launch's word, else the option's `default=`, a value the fork wrote, at its `add_argument` line. SkyRL: a
helper `build_vllm_cli_args` hands its namespace to (`_apply_sampling_mask(args, ie_cfg)`) is read for its writes,
under its `if` (an early `return` too) spelt in the caller's names; a value it writes that is not read here, or the
namespace handed on, keeps the launch open."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout12 import CORPUS
from test_forks_round2_readers import edit


def tree(case: str, tmp_path: Path) -> Path:
    return in_repository(CORPUS / case, tmp_path / case)


OPENRLHF_CASE = "openrlhf_env_var_mask_argparse_top_k_default_unbounded"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
OPENRLHF_CLI = "openrlhf/cli/train_ppo_ray.py"
OPENRLHF_LAUNCH = "examples/scripts/train_grpo_ray_replay.sh"
ENV_TEST = 'os.environ.get("OPENRLHF_RETURN_SAMPLING_MASK", "0") == "1"'
RUNTIME_ENV = '"env_vars": {"OPENRLHF_RETURN_SAMPLING_MASK": "1"}'
RAY_JOB = (
    'ray job submit --address="http://127.0.0.1:8265" \\\n'
    '   --runtime-env-json=\'{"working_dir": "/openrlhf", ' + RUNTIME_ENV + "}' \\\n"
    "   -- python3 -m openrlhf.cli.train_ppo_ray \\\n"
)
TOP_K_OPTION = '    parser.add_argument("--rollout.top_k", type=int, default=-1, help="Top-k for rollouts; -1 disables it")\n'
PASSED = "        top_k=args.rollout.top_k,\n"
LAST_WORD = "   --ckpt.path /openrlhf/examples/test_scripts/checkpoint/qwen2.5-7b-grpo-replay\n"
TOP_K_DEFAULT = {("RPL102", OPENRLHF_CLI, 400)}


@pytest.mark.parametrize(
    "test",
    [
        ENV_TEST,
        'os.getenv("OPENRLHF_RETURN_SAMPLING_MASK") == "1"',
        'os.environ["OPENRLHF_RETURN_SAMPLING_MASK"] == "1"',
        'os.environ.get("OPENRLHF_RETURN_SAMPLING_MASK", "0") in ("1", "true")',
    ],
    ids=["get", "getenv", "subscript", "in-tuple"],
)
def test_openrlhf_env_switch_set_by_the_ray_job_turns_the_mask_on(tmp_path: Path, test: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, ENV_TEST, test)
    assert findings(root) == TOP_K_DEFAULT  # the fork's `--rollout.top_k` default -1, at its own line


def test_openrlhf_env_switch_exported_for_a_plain_launch(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, RAY_JOB, "export OPENRLHF_RETURN_SAMPLING_MASK=1\npython3 -m openrlhf.cli.train_ppo_ray \\\n")
    assert findings(root) == TOP_K_DEFAULT


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (RUNTIME_ENV, '"env_vars": {"OPENRLHF_RETURN_SAMPLING_MASK": "0"}'),  # off
        (", " + RUNTIME_ENV, ""),  # not set by the launch: the cluster may set it
        (RUNTIME_ENV, '"env_vars": {"OPENRLHF_RETURN_SAMPLING_MASK": "${OPENRLHF_RETURN_SAMPLING_MASK}"}'),  # the cluster's
        ('\'{"working_dir": "/openrlhf", ' + RUNTIME_ENV + "}'", '"$RUNTIME_ENV_JSON"'),  # not read here
        (RAY_JOB, "python3 -m openrlhf.cli.train_ppo_ray \\\n"),  # a plain launch that does not export it
    ],
    ids=["set-to-zero", "not-set", "cluster-value", "runtime-env-from-outside", "plain-launch-not-exported"],
)
def test_openrlhf_env_switch_off_or_not_known_turns_nothing_on(tmp_path: Path, old: str, new: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, old, new)
    assert findings(root) == set()


def test_openrlhf_env_switch_with_the_upstream_top_k_sits_at_the_variable(tmp_path: Path) -> None:
    """Without the fork's option, OpenRLHF's own `.get("top_k", -1)` is sent (a fork that names `top_k`
    in train_ppo_ray.py in another way may pass it: not known)."""
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_CLI, PASSED, "")
    edit(root / OPENRLHF_CLI, TOP_K_OPTION, "")
    # samples_generator.py's `.get("top_k", -1)`, OpenRLHF's own default: at the line that turns the mask on
    assert findings(root) == {("RPL102", OPENRLHF_LAUNCH, 4)}


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("--rollout.top_k 20", set()),
        ("--rollout.top_k=50", set()),
        ("--rollout.top_k $TOP_K", set()),  # from outside the tree
        ("--rollout.top_k -1", {("RPL102", OPENRLHF_LAUNCH, 28)}),  # the launch's own word
    ],
)
def test_openrlhf_fork_option_top_k_given_by_the_launch(tmp_path: Path, word: str, expected: set) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, LAST_WORD, LAST_WORD.rstrip("\n") + f" \\\n   {word}\n")
    assert findings(root) == expected


@pytest.mark.parametrize(
    ("path", "old", "new", "expected"),
    [
        (OPENRLHF_CLI, TOP_K_OPTION, TOP_K_OPTION.replace("default=-1", "default=20"), set()),
        (OPENRLHF_CLI, TOP_K_OPTION, TOP_K_OPTION.replace("default=-1", 'default="-1"'), TOP_K_DEFAULT),  # argparse types it
        (OPENRLHF_CLI, TOP_K_OPTION, TOP_K_OPTION.replace("default=-1", "default=DEFAULT_TOP_K"), set()),  # not read here
        (OPENRLHF_CLI, PASSED, "        top_k=max(args.rollout.top_k, 1),\n", set()),  # another value
        (OPENRLHF_CLI, "    args = parser.parse_args()\n", "    args = parser.parse_args()\n    args.rollout.top_k = 20\n", set()),
    ],
    ids=["bounded-default", "string-default", "named-default", "clamped", "set-again"],
)
def test_openrlhf_fork_option_top_k_read_only_as_written(tmp_path: Path, path: str, old: str, new: str, expected: set) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / path, old, new)
    assert findings(root) == expected


SKYRL_CASE = "skyrl_engine_config_field_threaded_eval_top_k_default"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
SWITCH = "  generator.inference_engine.sampling_mask=true \\\n"
HELPER = '    if ie_cfg.sampling_mask:\n        args.return_sampling_mask = True\n        args.logprobs_mode = "processed_logprobs"\n'
CALL = "    _apply_sampling_mask(args, ie_cfg)\n"
EVAL_TOP_K = {("RPL102", SKYRL_LAUNCH, 20)}  # SkyRL's `top_k: int = -1`, at the launch's switch


@pytest.mark.parametrize(
    ("helper", "call"),
    [
        (HELPER, CALL),
        (
            "    if not ie_cfg.sampling_mask:\n        return\n"
            '    args.return_sampling_mask = True\n    args.logprobs_mode = "processed_logprobs"\n',
            CALL,
        ),
        (
            '    if ie_cfg.sampling_mask:\n        setattr(args, "return_sampling_mask", True)\n'
            '        setattr(args, "logprobs_mode", "processed_logprobs")\n',
            CALL,
        ),
        (HELPER, "    _apply_sampling_mask(ie_cfg=ie_cfg, args=args)\n"),
        (HELPER.replace("ie_cfg.", "engine."), "    _apply_sampling_mask(args, engine=ie_cfg)\n"),
    ],
    ids=["if", "early-return", "setattr", "keywords", "renamed-parameter"],
)
def test_skyrl_helper_handed_the_namespace_is_read(tmp_path: Path, helper: str, call: str) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_UTILS, HELPER, helper)
    edit(root / SKYRL_UTILS, CALL, call)
    if "engine." in helper:
        edit(root / SKYRL_UTILS, "ie_cfg: InferenceEngineConfig) -> None:", "engine: InferenceEngineConfig) -> None:")
    assert findings(root) == EVAL_TOP_K


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (SKYRL_LAUNCH, SWITCH, SWITCH.replace("true", "false")),
        (SKYRL_LAUNCH, SWITCH, ""),  # the field's default, False
        (SKYRL_LAUNCH, SWITCH, SWITCH.replace("true", "$REPLAY")),  # from outside the tree
        (SKYRL_UTILS, CALL, ""),  # defined, never called
        (SKYRL_UTILS, "        args.return_sampling_mask = True\n", "        args.return_sampling_mask = ie_cfg.extra.mask\n"),
        (SKYRL_UTILS, HELPER, HELPER + "    _more_replay_args(args)\n"),  # handed on: what it sets is not read
        (SKYRL_LAUNCH, "  generator.eval_sampling_params.temperature=0.6 \\\n", "  generator.eval_sampling_params.top_k=20 \\\n"),
        (SKYRL_LAUNCH, "  trainer.eval_interval=5 \\\n", "  trainer.eval_interval=-1 \\\n"),  # no evaluation
    ],
    ids=["switch-off", "switch-default", "switch-from-outside", "not-called", "value-not-read", "handed-on", "eval-top-k", "eval-off"],
)
def test_skyrl_helper_off_or_not_known_is_clean(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()


def test_skyrl_helper_early_return_holds_only_when_switched_on(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_UTILS, HELPER, "    if not ie_cfg.sampling_mask:\n        return\n    args.return_sampling_mask = True\n")
    edit(root / SKYRL_LAUNCH, SWITCH, "")
    assert findings(root) == set()
