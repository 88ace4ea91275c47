"""Precision of what round 9 of the held-out forks taught the fork readers (tests/test_forks_heldout9.py):
each test takes a round-9 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

OpenRLHF: a dotted launch is judged by the editions whose parser takes it, not by the older ones
that refuse its spellings (one of which, `--rollout.temperature`, names a request key). prime-rl:
`inference @ FILE` reads a file of InferenceConfig fields alone, in the script's environment (an
exported `VLLM_USE_V2_MODEL_RUNNER` survives server.py's `setdefault`). SkyRL: a fork's write under
`if ie_cfg.KEY:` that the launch turns on sits at the launch's word."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout9 import CORPUS
from test_forks_round2_readers import edit, findings
from test_forks_round7_readers import checked


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


OPENRLHF_CASE = "openrlhf_replay_kwargs_constant_top_k_left_default"
OPENRLHF_CORRECTED = "openrlhf_mask_tied_to_correction_fork_top_k_clean"
OPENRLHF_LAUNCH = "examples/scripts/train_grpo_replay_ray_hybrid_engine.sh"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
OUTPUT_DIR = "--ckpt.output_dir ./checkpoint/qwen3-4b-grpo-replay"
UNBOUNDED = {("RPL102", OPENRLHF_ENGINES, 212)}  # samples_generator.py's `.get("top_k", -1)`, at the constant's mask


def test_openrlhf_dotted_launch_is_judged_by_the_editions_that_take_it(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    assert findings(root) == UNBOUNDED
    edit(root / OPENRLHF_LAUNCH, "   --rollout.temperature 1.0 \\\n", "   --rollout.temperature 0.7 \\\n")
    assert findings(root) == UNBOUNDED  # the flag's temperature, still top_k -1


def test_openrlhf_launch_refused_for_another_flag_is_not_a_replay_refusal(tmp_path: Path) -> None:
    # `--train.save_path` is no option of the fork's parser (nor of 0.10.2 to 0.11.2): argparse stops
    # there, for a reason that is not replay's; the older parsers' refusal of the dotted flags is not it.
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, OUTPUT_DIR, "--train.save_path ./checkpoint/qwen3-4b-grpo-replay")
    assert findings(root) == set()
    root = tree(OPENRLHF_CORRECTED, tmp_path)
    edit(root / OPENRLHF_LAUNCH, OUTPUT_DIR, "--train.save_path ./checkpoint/qwen3-4b-grpo-replay")
    assert findings(root) == set()


def test_openrlhf_fork_without_the_constant_leaves_the_request_alone(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, "        actor_kwargs.update(REPLAY_ENGINE_KWARGS)\n", "")
    assert findings(root) == set()  # no mask: top_k -1 is vLLM's business alone


PRIME_CASE = "prime_env_var_mask_to_namespace_v1_setdefault"
PRIME_CLEAN = "prime_vllm_config_field_default_mask_ngram_v2_clean"
PRIME_LAUNCH = "scripts/replay_inference.sh"
PRIME_EXPORT = "export PRIME_SAMPLING_REPLAY=1\n"
PRIME_SERVER = "src/prime_rl/inference/server.py"
RUNNER_REMOVED = {("RPL206", PRIME_SERVER, 17)}


def test_prime_rl_inference_file_of_vllm_fields_alone_is_read(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    assert findings(root) == RUNNER_REMOVED
    edit(root / PRIME_LAUNCH, PRIME_EXPORT, "")
    edit(root / PRIME_LAUNCH, "uv run inference", "PRIME_SAMPLING_REPLAY=1 uv run inference")
    assert findings(root) == RUNNER_REMOVED  # the command's own prefix


def test_prime_rl_inference_switch_off_or_unknown_turns_no_mask_on(tmp_path: Path) -> None:
    # vLLM 0.34.0 refuses server.py's "0" with or without the mask; the mask is named only when on.
    switch = "the forked prime-rl's inference.py:618 sets return_sampling_mask = True"
    assert [switch in message for message in messages(tree(PRIME_CASE, tmp_path / "on"))] == [True]
    for name, export in (("off", "export PRIME_SAMPLING_REPLAY=0\n"), ("outside", 'export PRIME_SAMPLING_REPLAY="${R}"\n'), ("unset", "")):
        root = tree(PRIME_CASE, tmp_path / name)
        edit(root / PRIME_LAUNCH, PRIME_EXPORT, export)
        assert [switch in message for message in messages(root)] == [False], name


def messages(root: Path) -> list[str]:
    return [item["message"] for item in checked("--no-cache", str(root))]


def test_prime_rl_rl_entrypoint_does_not_take_an_inference_file(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_LAUNCH, "uv run inference @", "uv run rl @")
    assert findings(root) == set()  # `rl` needs an [orchestrator]: not this file's launch


def test_prime_rl_scripts_runner_export_survives_the_setdefault(tmp_path: Path) -> None:
    root = tree(PRIME_CLEAN, tmp_path)
    assert findings(root) == set()
    edit(root / PRIME_LAUNCH, "export VLLM_USE_V2_MODEL_RUNNER=1\n", "")
    assert findings(root) == RUNNER_REMOVED  # server.py:17's "0" stands
    edit(root / PRIME_LAUNCH, "uv run inference", 'VLLM_USE_V2_MODEL_RUNNER="${RUNNER}" uv run inference')
    assert findings(root) == set()  # a value from outside keeps the "0" away or not


SKYRL_CASE = "skyrl_config_field_mask_raw_logprobs"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
SKYRL_CONFIG = "skyrl/train/config/config.py"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_SWITCH = "  generator.inference_engine.sampling_replay=true \\\n"


def test_skyrl_fork_switch_turned_on_by_the_launch_sits_at_its_word(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    assert findings(root) == {("RPL003", SKYRL_LAUNCH, 20)}
    edit(root / SKYRL_LAUNCH, SKYRL_SWITCH, "")
    assert findings(root) == set()  # off by default
    edit(root / SKYRL_LAUNCH, "  generator.sampling_params.top_k=20 \\\n", SKYRL_SWITCH.replace("true", "1"))
    assert {(code, path) for code, path, _ in findings(root)} >= {("RPL003", SKYRL_LAUNCH)}


def test_skyrl_fork_switch_on_by_its_default_sits_at_the_forks_line(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_CONFIG, "    sampling_replay: bool = False\n", "    sampling_replay: bool = True\n")
    edit(root / SKYRL_LAUNCH, SKYRL_SWITCH, "")
    assert findings(root) == {("RPL003", SKYRL_UTILS, 158)}  # the fork decides
    edit(root / SKYRL_LAUNCH, "  generator.sampling_params.top_k=20 \\\n", "  generator.sampling_params.top_k=20 \\\n" + SKYRL_SWITCH)
    assert findings(root) == {("RPL003", SKYRL_UTILS, 158)}  # the launch repeats the default: still the fork's


def test_skyrl_fork_switch_from_a_variable_or_turned_off_says_nothing(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, SKYRL_SWITCH, "  generator.inference_engine.sampling_replay=$REPLAY \\\n")
    assert findings(root) == set()
    edit(root / SKYRL_LAUNCH, "sampling_replay=$REPLAY", "sampling_replay=false")
    assert findings(root) == set()
