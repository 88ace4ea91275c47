"""What round 13 of the held-out forks taught the fork readers (tests/test_forks_heldout13.py), and its precision:
each test takes a round-13 tree, checks what it reports, and changes it so that the value may not reach vLLM,
or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

SkyRL: a value `build_vllm_cli_args` sets on vLLM's namespace after it has copied the launch's `engine_init_kwargs`
onto it (`for k, v in engine_kwargs.items(): setattr(args, k, v)`, then `args.logprobs_mode = ...`) wins over the
launch's, under its `if` decided by the launch; one written before that copy is under the launch's; a value written
after it that is not read here keeps the launch open. OpenRLHF: an option the fork's train_ppo_ray.py adds with
`type=json.loads` gives `create_vllm_engines` the parsed dict (also as `--opt={...}`, a word with spaces argparse
takes as the option); a `type` not read here, a value from outside or not JSON keep it unknown. verl: a replica
that starts one of two server classes by a test (`ray.remote(A if replay else B)`) has each class's hook dict
under that test, decided by what the launch exports; a variable not exported, exported from outside, or a name
bound more than once keeps the launch open."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout13 import CORPUS
from test_forks_round2_readers import edit


def tree(case: str, tmp_path: Path) -> Path:
    return in_repository(CORPUS / case, tmp_path / case)


SKYRL_CASE = "skyrl_engine_field_replay_written_after_engine_init_kwargs_clean"
SKYRL_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
COPY = "    for key, value in engine_kwargs.items():\n        setattr(args, key, value)\n\n"
COMMENT = "    # After engine_init_kwargs: replay needs processed logprobs whatever a run passed through.\n"
LATE = '    if ie_cfg.sampling_replay:\n        args.return_sampling_mask = True\n        args.logprobs_mode = "processed_logprobs"\n'
RAW_AT_LAUNCH = {("RPL003", SKYRL_LAUNCH, 45)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("", ""),  # the case as written
        ('args.logprobs_mode = "processed_logprobs"', 'setattr(args, "logprobs_mode", "processed_logprobs")'),
        (
            "    engine_kwargs = get_config_as_dict(ie_cfg.engine_init_kwargs)\n" + COPY,
            "    for key, value in get_config_as_dict(ie_cfg.engine_init_kwargs).items():\n        setattr(args, key, value)\n\n",
        ),
        (LATE, LATE.replace("if ie_cfg.sampling_replay:", 'if os.environ.get("SKYRL_SAMPLING_REPLAY", "0") == "1":')),
    ],
    ids=["case", "setattr-after", "copied-inline", "env-switch-exported"],
)
def test_skyrl_write_after_the_pass_through_wins_over_the_launch(tmp_path: Path, old: str, new: str) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    if old:
        edit(root / SKYRL_ARGS, old, new)
    if "SKYRL_SAMPLING_REPLAY" in new:
        edit(root / SKYRL_LAUNCH, "set -x\n", "set -x\nexport SKYRL_SAMPLING_REPLAY=1\n")
    assert findings(root) == set()


def test_skyrl_write_before_the_pass_through_is_under_the_launch(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_ARGS, COPY + COMMENT + LATE, LATE + COPY)
    assert findings(root) == RAW_AT_LAUNCH


def test_skyrl_late_write_under_a_switch_the_launch_leaves_off_does_not_win(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(
        root / SKYRL_ARGS,
        LATE,
        LATE.replace(
            "    if ie_cfg.sampling_replay:\n        args.return_sampling_mask = True\n",
            "    args.return_sampling_mask = True\n    if ie_cfg.enforce_eager:\n",
        ),
    )
    edit(
        root / SKYRL_LAUNCH,
        "  generator.batched=true \\\n",
        "  generator.inference_engine.enforce_eager=false \\\n  generator.batched=true \\\n",
    )
    assert findings(root) == {("RPL003", SKYRL_LAUNCH, 45)}


@pytest.mark.parametrize(
    "new",
    [
        '        args.logprobs_mode = os.environ["SKYRL_LOGPROBS_MODE"]\n',  # a value from outside, set last
        "        args.logprobs_mode = ie_cfg.replay_logprobs_mode\n",  # a config value not read here
    ],
    ids=["from-environment", "from-config"],
)
def test_skyrl_late_value_not_read_here_keeps_the_launch_open(tmp_path: Path, new: str) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_ARGS, '        args.logprobs_mode = "processed_logprobs"\n', new)
    assert findings(root) == set()


def test_skyrl_late_write_under_a_variable_the_launch_does_not_export_keeps_it_open(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(
        root / SKYRL_ARGS,
        LATE,
        "    args.return_sampling_mask = True\n"
        + LATE.replace("if ie_cfg.sampling_replay:", 'if os.environ.get("SKYRL_PROCESSED", "0") == "1":').replace(
            "        args.return_sampling_mask = True\n", ""
        ),
    )
    assert findings(root) == set()


def test_skyrl_twin_user_dict_spread_last_keeps_its_finding(tmp_path: Path) -> None:
    root = tree("skyrl_replay_defaults_under_user_engine_init_kwargs_raw_logprobs", tmp_path)
    assert findings(root) == {("RPL003", "examples/train/gsm8k/run_gsm8k_replay.sh", 44)}


OPENRLHF_CASE = "openrlhf_json_flag_speculative_adaptive_verification_mask_flag"
OPENRLHF_CLI = "openrlhf/cli/train_ppo_ray.py"
OPENRLHF_LAUNCH = "examples/scripts/train_grpo_replay_ray.sh"
JSON_OPTION = 'parser.add_argument("--vllm.speculative_config", type=json.loads, default=None'
SPEC_WORDS = (
    '   --vllm.speculative_config \'{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, '
    '"enable_adaptive_verification": true}\' \\\n'
)
ADAPTIVE_AT_FLAG = {("RPL002", OPENRLHF_LAUNCH, 30)}


@pytest.mark.parametrize(
    ("cli", "words"),
    [
        (None, None),  # the case as written
        (("import json\n", "from json import loads\n"), None),  # `type=loads`
        (None, SPEC_WORDS.replace("--vllm.speculative_config '", "--vllm.speculative_config='")),
        (
            None,
            '   --vllm.speculative_config "{\\"method\\": \\"ngram\\", \\"num_speculative_tokens\\": 4, \\"enable_adaptive_verification\\": true}" \\\n',
        ),
    ],
    ids=["case", "from-import", "equals", "double-quoted"],
)
def test_openrlhf_json_option_gives_the_engine_a_dict(tmp_path: Path, cli: tuple[str, str] | None, words: str | None) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    if cli is not None:
        edit(root / OPENRLHF_CLI, *cli)
        edit(root / OPENRLHF_CLI, "type=json.loads", "type=loads")
    if words is not None:
        edit(root / OPENRLHF_LAUNCH, SPEC_WORDS, words)
    assert findings(root) == ADAPTIVE_AT_FLAG


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (OPENRLHF_LAUNCH, '"enable_adaptive_verification": true', '"enable_adaptive_verification": false'),
        (OPENRLHF_LAUNCH, "   --vllm.return_sampling_mask \\\n", ""),  # the fork's switch left off
        (OPENRLHF_LAUNCH, SPEC_WORDS, '   --vllm.speculative_config "$SPEC_CONFIG" \\\n'),  # from outside
        (OPENRLHF_LAUNCH, '"enable_adaptive_verification": true}', '"enable_adaptive_verification": true'),  # not JSON: argparse exits
        (OPENRLHF_CLI, "type=json.loads", "type=lambda text: json.loads(text)"),  # a conversion not read here
        (OPENRLHF_CLI, "type=json.loads", "type=parse_speculative"),
    ],
    ids=["adaptive-off", "mask-off", "from-outside", "not-json", "lambda-type", "own-type"],
)
def test_openrlhf_json_option_not_adaptive_or_not_known_is_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()


VERL_CASE = "verl_replay_server_subclass_env_selected_launch_val_greedy"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
VERL_LAUNCH = "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"
CHOICE = (
    '        replay = os.environ.get("VERL_SAMPLING_REPLAY", "0") == "1"\n'
    "        self.server_class = ray.remote(vLLMReplayHttpServer if replay else vLLMHttpServer)\n"
)
EXPORT = "export VERL_SAMPLING_REPLAY=1\n"
GREEDY_VALIDATION = {("RPL101", VERL_LAUNCH, 23)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("", ""),  # the case as written
        (
            CHOICE,
            '        self.server_class = ray.remote(vLLMReplayHttpServer if os.getenv("VERL_SAMPLING_REPLAY") == "1" else vLLMHttpServer)\n',
        ),
        (
            CHOICE,
            '        plain = os.environ.get("VERL_SAMPLING_REPLAY", "0") != "1"\n'
            "        self.server_class = ray.remote(vLLMHttpServer if plain else vLLMReplayHttpServer)\n",
        ),
        ("        args.update(self._replay_server_args())\n", ""),  # spread in the literal instead, below
    ],
    ids=["case", "inline-getenv", "inverted", "spread-in-literal"],
)
def test_verl_server_subclass_chosen_by_an_exported_variable_turns_the_mask_on(tmp_path: Path, old: str, new: str) -> None:
    root = tree(VERL_CASE, tmp_path)
    if old:
        edit(root / VERL_SERVER, old, new)
    if old.startswith("        args.update"):
        edit(
            root / VERL_SERVER,
            "            **engine_kwargs,\n        }\n",
            "            **engine_kwargs,\n            **self._replay_server_args(),\n        }\n",
        )
    assert findings(root) == GREEDY_VALIDATION


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (VERL_LAUNCH, EXPORT, ""),  # not exported: the cluster may set it
        (VERL_LAUNCH, EXPORT, "export VERL_SAMPLING_REPLAY=0\n"),
        (VERL_LAUNCH, EXPORT, "export VERL_SAMPLING_REPLAY=$REPLAY\n"),  # from outside
        (
            VERL_SERVER,
            CHOICE,
            CHOICE.replace("        self.server_class", '        replay = replay or self.config.get("replay")\n        self.server_class'),
        ),
        (VERL_SERVER, CHOICE, CHOICE.replace("os.environ.get(", "self.replay_switch(").replace(', "0") == "1"', ")")),  # a test not read
        (VERL_LAUNCH, "val_kwargs.temperature=0 ", "val_kwargs.temperature=0.7 "),
    ],
    ids=["not-exported", "exported-zero", "from-outside", "rebound", "test-not-read", "val-not-greedy"],
)
def test_verl_server_subclass_not_chosen_or_not_known_is_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = tree(VERL_CASE, tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()
