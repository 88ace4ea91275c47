"""Precision of what round 7 of the held-out forks taught the fork readers (tests/test_forks_heldout7.py):
each test takes a round-7 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from forks_trees import materialize
from test_forks_heldout7 import CORPUS
from test_forks_round2_readers import edit, findings

from replaylint.cli.main import main

SKYRL_CASE = "skyrl_flag_field_mask_sets_logprobs_mode_no_eval_clean"
SKYRL_LAUNCH = "run_gsm8k_replay.sh"
EVAL_OFF = "  trainer.eval_interval=-1 \\\n"
# At the launch's `generator.inference_engine.return_sampling_mask=true` (line 23), which turns on the
# fork's `if ie_cfg.return_sampling_mask:` (utils.py:158, the field off by default): since round 9.
GREEDY_EVAL = {("RPL101", SKYRL_LAUNCH, 23), ("RPL102", SKYRL_LAUNCH, 23)}
GREEDY_EVAL_ONE_LINE_UP = {("RPL101", SKYRL_LAUNCH, 22), ("RPL102", SKYRL_LAUNCH, 22)}  # the eval line removed


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def test_skyrl_sends_no_eval_request_with_evaluation_off(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    assert findings(root) == set()
    edit(root / SKYRL_LAUNCH, EVAL_OFF, "  trainer.eval_interval=0 \\\n")
    assert findings(root) == set()  # `eval_interval > 0` is SkyRL's test


def test_skyrl_evaluates_at_its_default_interval(tmp_path: Path) -> None:
    # Without the override, `eval_interval: int = 5`: the greedy `eval_sampling_params` default is sent.
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, EVAL_OFF, "")
    assert findings(root) == GREEDY_EVAL_ONE_LINE_UP


def test_skyrl_evaluates_with_a_positive_interval_even_without_eval_before_train(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, EVAL_OFF, "  trainer.eval_interval=10 \\\n")
    assert findings(root) == GREEDY_EVAL


def test_skyrl_eval_interval_from_a_variable_keeps_the_eval_requests(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, EVAL_OFF, '  trainer.eval_interval="${EVAL_EVERY}" \\\n')
    assert findings(root) == GREEDY_EVAL


def test_skyrl_eval_off_keeps_the_train_requests_judged(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, "  generator.sampling_params.top_k=20 \\\n", "")
    assert {code for code, _, _ in findings(root)} == {"RPL102"}  # the train requests' default top_k -1


NEMO_CASE = "nemo_vllm_cfg_yaml_default_mask_subscript_recipe_top_k_clean"
NEMO_DEFAULT = "examples/configs/grpo_math_1B.yaml"
NEMO_RECIPE = "examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml"
NEMO_LAUNCH = "run_replay.sh"
RECIPE_CONFIG = "  --config examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml \\\n"
UNBOUNDED = {("RPL102", NEMO_DEFAULT, 373)}  # NeMo-RL's `top_k: null` (-1)


def checked(*arguments: str) -> list[dict]:
    """What `replaylint check` reports as JSON for vLLM 0.34.0 with `arguments` (options, then paths)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--target-vllm", "0.34.0", "--output-format", "json", *arguments])
    return json.loads(out.getvalue())


def nemo_messages(root: Path) -> list[str]:
    return [item["message"] for item in checked("--no-cache", str(root))]


def test_nemo_default_config_read_only_as_a_recipes_parent_is_not_a_launch_of_its_own(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    assert findings(root) == set()  # run_replay.sh's recipe bounds top_k: 50 over the default's null


def test_nemo_default_config_is_judged_alone_when_the_tree_holds_no_launch(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    (root / NEMO_LAUNCH).unlink()
    assert findings(root) == UNBOUNDED
    assert any("when `" in message and "examples/run_grpo.py` runs it as its default config" in message for message in nemo_messages(root))


def test_nemo_default_config_run_without_config_by_the_launch_is_the_launchs(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_LAUNCH, RECIPE_CONFIG, "")
    assert findings(root) == UNBOUNDED
    messages = nemo_messages(root)
    assert len(messages) == 1 and "runs it as its default config" not in messages[0]  # run_replay.sh's own launch


def test_nemo_recipe_without_top_k_leaves_the_parents_null_to_the_launch(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, "    top_k: 50\n", "")
    assert findings(root) == UNBOUNDED
    messages = nemo_messages(root)  # the launch's, which reads it through the recipe
    assert len(messages) == 1 and "(inherited by grpo-qwen3-1.7b-replay.yaml)" in messages[0]
    assert "runs it as its default config" not in messages[0]


def test_nemo_launch_spelled_otherwise_reads_the_recipe_too(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    (root / NEMO_LAUNCH).unlink()
    (root / "grpo.sh").write_text(
        "#!/bin/bash\nset -euo pipefail\n"
        "NRL_FORCE_REBUILD_VENVS=true uv run python examples/run_grpo.py --config examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml\n"
    )
    assert findings(root) == set()
    edit(root / NEMO_RECIPE, "    top_k: 50\n", "")
    assert findings(root) == UNBOUNDED


def test_nemo_launch_of_another_config_leaves_the_default_config_judged_alone(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_LAUNCH, RECIPE_CONFIG, "  --config examples/configs/sft.yaml \\\n")
    edit(root / NEMO_LAUNCH, "uv run examples/run_grpo.py", "uv run examples/run_sft.py")
    assert findings(root) == UNBOUNDED


def test_nemo_default_config_named_alone_is_judged_by_the_launch_cold_and_warm(tmp_path: Path) -> None:
    # pre-commit names the changed file only; a warm result cache must say what a cold run says
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, "    top_k: 50\n", "")

    def run(*options: str) -> list[int]:
        return [item["location"]["row"] for item in checked(*options, str(root / NEMO_DEFAULT))]

    cache = ["--cache-dir", str(tmp_path / "cache")]
    assert run("--no-cache") == run(*cache) == run(*cache) == [373]
    edit(root / NEMO_RECIPE, "  generation:\n", "  generation:\n    top_k: 50\n")
    assert run("--no-cache") == run(*cache) == []  # the launch's recipe changed: the config's result too


OI_CASE = "oi_engine_kwargs_mask_sampling_config_top_k_minus_one"
OI_UTILS = "open_instruct/vllm_utils.py"
OI_FIELD = "    top_k: int = -1  # vLLM: -1 disables top-k\n"
OI_SENT = '                    "top_k": params_dict.pop("top_k"),\n'
OI_UNBOUNDED = {("RPL102", OI_UTILS, 147)}  # the field's default, at its line


def test_open_instruct_extra_body_top_k_from_the_sampling_configs_field(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    assert findings(root) == OI_UNBOUNDED
    edit(root / OI_UTILS, OI_FIELD, "    top_k: int = 40\n")
    assert findings(root) == set()


def test_open_instruct_extra_body_reads_the_field_in_other_spellings(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    for spelling in ('params_dict["top_k"]', 'params_dict.get("top_k", 50)', "current_sampling_params.top_k", "sampling_params.top_k"):
        edit(root / OI_UTILS, OI_SENT, f'                    "top_k": {spelling},\n')
        assert findings(root) == OI_UNBOUNDED, spelling
        edit(root / OI_UTILS, f'                    "top_k": {spelling},\n', OI_SENT)


def test_open_instruct_field_set_by_a_sampling_config_call_is_the_runs(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(
        root / OI_UTILS,
        "    sampling_params = dataclasses.replace(request.generation_config, n=1)\n",
        "    sampling_params = dataclasses.replace(request.generation_config, n=1)\n    SamplingConfig(top_k=args.top_k)\n",
    )
    assert findings(root) == set()  # a value from the run's configuration: not known here


def test_open_instruct_without_the_field_a_get_default_is_sent(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(root / OI_UTILS, OI_FIELD, "")
    edit(root / OI_UTILS, OI_SENT, '                    "top_k": params_dict.get("top_k", -1),\n')
    assert findings(root) == {("RPL102", OI_UTILS, 1019)}  # the `.get` default, at its line
    edit(root / OI_UTILS, '"top_k": params_dict.get("top_k", -1)', '"top_k": params_dict.get("top_k", 20)')
    assert findings(root) == set()


def test_open_instruct_top_k_of_another_dict_is_not_the_configs(tmp_path: Path) -> None:
    root = tree(OI_CASE, tmp_path)
    edit(root / OI_UTILS, OI_SENT, '                    "top_k": actor.request_defaults.get("top_k"),\n')
    assert findings(root) == set()  # not read here


OPENRLHF_CASE = "openrlhf_cli_flag_mask_no_is_correction_raw_logprobs"
OPENRLHF_LAUNCH = "train_reinforce_replay.sh"
OPENRLHF_CLI = "openrlhf/cli/train_ppo_ray.py"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
MASK_FLAG = "   --vllm.return_sampling_mask \\\n"
RAW_AT_FLAG = {("RPL003", OPENRLHF_LAUNCH, 30)}


def test_openrlhf_forks_own_flag_turns_the_mask_on_at_the_launchs_line(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    assert findings(root) == RAW_AT_FLAG
    edit(root / OPENRLHF_LAUNCH, MASK_FLAG, "")
    assert findings(root) == set()  # the switch stays at its default, False


def test_openrlhf_forks_flag_with_the_correction_is_clean(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, MASK_FLAG, MASK_FLAG + "   --algo.advantage.is_correction_enable \\\n")
    assert findings(root) == set()  # logprobs_mode="processed_logprobs"


def test_openrlhf_forks_flag_abbreviated_or_renamed(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, MASK_FLAG, "   --vllm.return_sampling \\\n")  # argparse's unique prefix
    assert findings(root) == RAW_AT_FLAG
    edit(root / OPENRLHF_CLI, '"--vllm.return_sampling_mask",', '"--vllm.replay_masks",')
    edit(root / OPENRLHF_CLI, "return_sampling_mask=args.vllm.return_sampling_mask", "return_sampling_mask=args.vllm.replay_masks")
    edit(root / OPENRLHF_LAUNCH, "   --vllm.return_sampling \\\n", "   --vllm.replay_masks \\\n")
    assert findings(root) == RAW_AT_FLAG


def test_openrlhf_forks_switch_on_by_default_is_the_forks_line(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(
        root / OPENRLHF_CLI,
        '"--vllm.return_sampling_mask",\n        action="store_true",\n        default=False,',
        '"--vllm.no_sampling_mask",\n        action="store_false",\n        default=True,',
    )
    edit(root / OPENRLHF_CLI, "return_sampling_mask=args.vllm.return_sampling_mask", "return_sampling_mask=args.vllm.no_sampling_mask")
    edit(root / OPENRLHF_LAUNCH, MASK_FLAG, "")
    assert findings(root) == {("RPL003", OPENRLHF_ENGINES, 294)}  # on unless the launch turns it off
    edit(root / OPENRLHF_LAUNCH, "   --reward.remote_url", "   --vllm.no_sampling_mask \\\n   --reward.remote_url")
    assert findings(root) == set()


def test_openrlhf_forks_switch_under_a_test_not_read_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, "        if return_sampling_mask:\n", "        if return_sampling_mask and os.environ.get('REPLAY'):\n")
    assert findings(root) == set()


PRIME_CASE = "prime_env_var_mask_in_to_namespace_extra_body_top_k_default"
PRIME_LAUNCH = "run_replay.sh"
PRIME_TOML = "rl-replay.toml"
PRIME_INFERENCE = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"
PRIME_EXPORT = "export PRIME_RL_RETURN_SAMPLING_MASK=1\n"
PRIME_TEST = 'if os.environ.get("PRIME_RL_RETURN_SAMPLING_MASK", "0") == "1":'
UNBOUNDED_AT_EXPORT = {("RPL102", PRIME_LAUNCH, 5)}  # prime-rl's `extra_body.setdefault("top_k", -1)`


def test_prime_rl_forks_environment_switch_turned_on_by_the_launchs_export(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    assert findings(root) == UNBOUNDED_AT_EXPORT
    edit(root / PRIME_LAUNCH, PRIME_EXPORT, "export PRIME_RL_RETURN_SAMPLING_MASK=0\n")
    assert findings(root) == set()  # the test does not hold: no mask


def test_prime_rl_forks_environment_switch_not_set_by_the_launch_is_not_assumed(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_LAUNCH, PRIME_EXPORT, "")
    assert findings(root) == set()  # the caller's environment may set it or not
    edit(root / PRIME_LAUNCH, "uv run rl", 'PRIME_RL_RETURN_SAMPLING_MASK="${REPLAY_ON}" uv run rl')
    assert findings(root) == set()  # a value not known here


def test_prime_rl_forks_environment_switch_as_a_command_prefix_and_other_reads(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_LAUNCH, PRIME_EXPORT, "")
    edit(root / PRIME_LAUNCH, "uv run rl", "PRIME_RL_RETURN_SAMPLING_MASK=1 uv run rl")
    assert findings(root) == {("RPL102", PRIME_LAUNCH, 5)}  # the prefix's line
    edit(root / PRIME_INFERENCE, PRIME_TEST, 'if os.getenv("PRIME_RL_RETURN_SAMPLING_MASK") == "1":')
    assert findings(root) == {("RPL102", PRIME_LAUNCH, 5)}
    edit(
        root / PRIME_INFERENCE,
        'if os.getenv("PRIME_RL_RETURN_SAMPLING_MASK") == "1":',
        'if os.environ["PRIME_RL_RETURN_SAMPLING_MASK"] == "yes":',
    )
    assert findings(root) == set()  # "1" is not "yes"


def test_prime_rl_launch_with_top_k_in_the_toml_is_clean(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_TOML, "max_completion_tokens = 128\n", "max_completion_tokens = 128\nextra_body = { top_k = 20 }\n")
    assert findings(root) == set()


def test_prime_rl_launch_with_overrides_not_read_stays_open(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_LAUNCH, "--wandb.project reverse-text-replay", "--orchestrator.train.sampling.extra-body '{\"top_k\": 20}'")
    assert findings(root) == set()  # the override may bound top_k: not read here


def test_openrlhf_forks_parameter_written_as_the_value_is_the_flags(tmp_path: Path) -> None:
    # `actor_kwargs["return_sampling_mask"] = return_sampling_mask`, unconditionally: the flag's value
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(
        root / OPENRLHF_ENGINES,
        '        if return_sampling_mask:\n            actor_kwargs["return_sampling_mask"] = True\n',
        '        actor_kwargs["return_sampling_mask"] = return_sampling_mask\n',
    )
    assert findings(root) == RAW_AT_FLAG
    edit(root / OPENRLHF_LAUNCH, MASK_FLAG, "")
    assert findings(root) == set()
