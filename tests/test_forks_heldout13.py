"""Held-out fork edits, round 13 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout13/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py and train_ppo_ray.py, NVIDIA-NeMo/RL @ 7ea279a with examples/run_grpo.py,
allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447) with the edit a user makes in a fork to
turn replay on (`edits.patch`) and the launch the framework's examples use. Six of the twelve are clean.
Forms: verl's mask from a subclass `vLLMReplayHttpServer` whose `_replay_server_args()` hook launch_server merges
with `args.update(...)`, the replica picking it from an environment variable the launch exports, with the launch's
Hydra override `val_kwargs.temperature=0`; verl's mask in rollout.yaml's `engine_kwargs.vllm` defaults with
`enable_adaptive_verification` added only in the MTP branch the launch does not take; SkyRL's replay defaults
merged under the run's `engine_init_kwargs` (`{**defaults, **user}`), the launch's leftover `raw_logprobs` winning,
and a typed `InferenceEngineConfig.sampling_replay` field written after the pass-through loop, the same leftover
overwritten; OpenRLHF's `--vllm.speculative_config` (`type=json.loads`) and mask flags threaded into
create_vllm_engines with adaptive verification in the `ray job submit` launch, and the mask following
`is_correction_enable` with a V1 runner pin under `full_determinism`, not asked for; NeMo-RL's fork switch
`vllm_cfg.sampling_replay` (a grpo_math_1B.yaml default) turned on by a recipe that adds `vllm_kwargs.logits_processors`,
and a helper's kwargs applied by `llm_kwargs.update(...)` after the recipe's `logprobs_mode: raw_logprobs`;
open-instruct's `ReplayLLMRayActor` subclass adding the mask in `_setup_and_start_async_engine` with
`SamplingConfig.top_k` sent through `dataclasses.asdict` into `extra_body`, and the mask in `.remote(...)` with
`VLLM_USE_V2_MODEL_RUNNER: "0"` in the actors' Ray `runtime_env` `env_vars`; prime-rl's V1 pin kept only for runs
without the mask (`[inference.vllm] return_sampling_mask = true` in a TOML passed with `@`, train `extra_body`
top_k 64), and the pin deleted with the orchestrator's own `extra_body.setdefault("top_k", -1)` reaching requests.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py:1262-1289, v1/engine/input_processor.py:180-190, docs/rules/RPL206.md) before replaylint was run
on any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case patches and
READMEs. Every engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py,
tests/data/forks_heldout13/judge-cases.jsonl and judge-results.jsonl; sleep mode, worker extensions and weight
transfer configs left out); each case's README gives them and the verdict. A finding sits on the line that
decides: the written conflicting value's own line (the launch's, the recipe's, the fork's); when a framework or
vLLM default is what conflicts, the line that turns the mask on (prime-rl's top_k -1: the TOML's mask line).

First run (the lead, on h-fk13 at main e995f4a, after forks round 12's fixes): 9 of 12 trees as expected (75%);
of 6 expected findings 4 exact, 2 missed (PENDING); 1 false finding (RPL003 at the SkyRL launch's `raw_logprobs`
override, which the fork's engine code overwrites with processed_logprobs after the user's engine_init_kwargs);
5 of 6 clean trees clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout13"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_replay_server_subclass_env_selected_launch_val_greedy": {("RPL101", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh", 23)},
    "verl_rollout_yaml_engine_kwargs_mask_mtp_branch_untaken_clean": set(),
    "skyrl_replay_defaults_under_user_engine_init_kwargs_raw_logprobs": {("RPL003", "examples/train/gsm8k/run_gsm8k_replay.sh", 44)},
    "skyrl_engine_field_replay_written_after_engine_init_kwargs_clean": set(),
    "openrlhf_json_flag_speculative_adaptive_verification_mask_flag": {("RPL002", "examples/scripts/train_grpo_replay_ray.sh", 30)},
    "openrlhf_v1_pin_under_full_determinism_untaken_clean": set(),
    "nemo_vllm_cfg_replay_switch_recipe_logits_processors": {
        ("RPL001", "examples/configs/recipes/llm/grpo-qwen2.5-1.5b-replay-norepeat.yaml", 13)
    },
    "nemo_replay_helper_update_overwrites_recipe_raw_logprobs_clean": set(),
    "oi_replay_actor_subclass_engine_kwargs_top_k_asdict_clean": set(),
    "oi_runtime_env_env_vars_runner_zero_remote_mask": {("RPL206", "open_instruct/vllm_utils.py", 1271)},
    "prime_v1_pin_skipped_for_replay_toml_extra_body_top_k_clean": set(),
    "prime_v1_pin_deleted_toml_mask_orchestrator_top_k_default": {("RPL102", "examples/reverse_text/rl_replay.toml", 26)},
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
