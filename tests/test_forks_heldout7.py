"""Held-out fork edits, round 7 (issue 27, item 4, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout7/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py and train_ppo_ray.py, NVIDIA-NeMo/RL @ 7ea279a with examples/run_grpo.py,
allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447) with the edit a user makes in a fork to
turn replay on (`edits.patch`) and the launch the framework's examples use. Six of the twelve are clean. Forms:
verl's mask as a default of rollout.yaml's `engine_kwargs.vllm` (validation left at the framework's
`val_kwargs.temperature: 0`) and as one more key of launch_server's `args` dict (the launch bounding every
request and adding async scheduling); SkyRL's mask as an `InferenceEngineConfig` field default `True`
(eval left at the greedy `eval_sampling_params` default) and as a field default `False` turned on by the launch,
with the fork setting processed logprobs and eval off; OpenRLHF's new `--vllm.return_sampling_mask` switch,
without and with `--algo.advantage.is_correction_enable` (logprobs_mode left to vLLM or processed); NeMo-RL's mask
hard-coded in `llm_kwargs` with the user's recipe setting `logprobs_mode: raw_logprobs`, and as a `vllm_cfg`
default of grpo_math_1B.yaml read by subscript; open-instruct's mask beside `generation_config` with a
`SamplingConfig` field `top_k: int = -1` sent in `extra_body`, and read from an environment variable set in the
actor's Ray `runtime_env` with bounded requests; prime-rl's mask from an environment variable exported by the
launch (requests keeping `resolve_env_config`'s `top_k=-1`) and as a `VllmConfig` pydantic field with the TOML's
group-level `extra_body.top_k`, both removing server.py's `VLLM_USE_V2_MODEL_RUNNER` setdefault.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(docs/releases/0.34.0.md, vLLM 0.34.0's input_processor.py and sampling_params.py) before replaylint was run on
any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case patches and READMEs.
Every engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py); each case's README gives
them and the verdict. A finding sits on the line that decides: the written conflicting value's own line; when a
framework or vLLM default is what conflicts, the line that turns the mask on (the fork's line, or the launch's
flag or `export` when the fork's code only forwards a switch that is off by default).

First run (the lead, on main at a6f1370): 6 of 12 cases as expected (50%); of 6 expected
findings 3 exact, 0 at another line, 3 missed; false findings in 3 cases (RPL102 at NeMo-RL's
default grpo_math_1B.yaml:373 judged on its own in both NeMo-RL cases, RPL101/RPL102 at SkyRL's
inference_servers/utils.py:158 with eval off); 4 of 6 clean cases clean. Misses and false
findings PENDING below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import reported

CORPUS = Path(__file__).parent / "data" / "forks_heldout7"
NEMO_RECIPE = "examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_rollout_yaml_mask_val_temperature_default": {("RPL101", "verl/trainer/config/rollout/rollout.yaml", 125)},
    "verl_args_mask_async_scheduling_requests_bounded_clean": set(),
    "skyrl_dataclass_field_mask_eval_sampling_greedy_default": {
        ("RPL101", "skyrl/train/config/config.py", 1194),
        ("RPL102", "skyrl/train/config/config.py", 1194),
    },
    "skyrl_flag_field_mask_sets_logprobs_mode_no_eval_clean": set(),
    "openrlhf_cli_flag_mask_no_is_correction_raw_logprobs": {("RPL003", "train_reinforce_replay.sh", 30)},
    "openrlhf_cli_flag_mask_with_is_correction_clean": set(),
    "nemo_llm_kwargs_mask_recipe_raw_logprobs": {("RPL003", NEMO_RECIPE, 11)},
    "nemo_vllm_cfg_yaml_default_mask_subscript_recipe_top_k_clean": set(),
    "oi_engine_kwargs_mask_sampling_config_top_k_minus_one": {("RPL102", "open_instruct/vllm_utils.py", 147)},
    "oi_runtime_env_var_mask_read_in_actor_top_k_clean": set(),
    "prime_env_var_mask_in_to_namespace_extra_body_top_k_default": {("RPL102", "run_replay.sh", 5)},
    "prime_vllm_config_field_mask_group_extra_body_top_k_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_six_are_clean() -> None:
    folders = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
    assert folders == sorted(EXPECTED)
    clean = [case for case, findings in EXPECTED.items() if not findings]
    assert len(EXPECTED) == 12
    assert len(clean) >= 5, clean


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    for case in EXPECTED:
        assert "Imitates" in (CORPUS / case / "README").read_text(), case
        assert (CORPUS / case / "edits.patch").read_text().startswith("--- a/"), case


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=PENDING[case])) if case in PENDING else case
        for case in sorted(EXPECTED)
    ],
)
def test_case_findings(case: str, tmp_path: Path) -> None:
    got = reported(CORPUS / case, tmp_path / case)
    want = EXPECTED[case]
    assert got == want, f"{case}: missed {sorted(want - got)}, false {sorted(got - want)}"
