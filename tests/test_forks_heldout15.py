"""Held-out fork edits, round 15 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout15/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py and train_ppo_ray.py, NVIDIA-NeMo/RL @ 7ea279a with examples/run_grpo.py,
allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447) with the edit a user makes in a fork to
turn replay on (`edits.patch`) and the launch the framework's examples use. Six of the twelve are clean.
Forms: verl's default rollout YAML given `engine_kwargs.vllm.return_sampling_mask: true` with a launch override
logprobs_mode=raw_logprobs; verl's server `engine_kwargs.setdefault("return_sampling_mask", True)` with a launch
`+...engine_kwargs.vllm.logprobs_mode=null` that verl drops as None (clean); SkyRL's InferenceEngineConfig field with
`field(default_factory=os.getenv(...))` and evaluation left to GeneratorConfig.__post_init__'s greedy default
(temperature 0.0, top_k -1); SkyRL's mask set in GeneratorConfig.__post_init__ through engine_init_kwargs with the
launch's eval sampling set (clean); OpenRLHF's env-selected mask in create_vllm_engines without the correction flag
(logprobs_mode left to vLLM's raw_logprobs), and the mask tied to logprobs_mode with a fork top_k default (clean);
NeMo-RL's vllm_cfg key with a launch vllm_kwargs.logprobs_mode=raw_logprobs the worker overwrites from vllm_cfg
(clean), and a default-off YAML key turned on by a recipe YAML that also sets top_k 0; open-instruct's SamplingConfig
top_k from an env var through `dataclasses.field(default_factory=...)` into extra_body (clean), and the same fork
launched with OI_REPLAY_TOP_K=0; prime-rl's pydantic `Field(default_factory=os.getenv(...))` mask with the V1 pin
removed and a TOML top_k the orchestrator's setdefault keeps (clean), and a VllmConfig subclass turning the mask on in
model_post_init with an eval source whose sampling sets `top_k = 0`.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py, v1/engine/input_processor.py:180-190, docs/rules/) before replaylint was run on any of them,
without reading its implementation (src/replaylint/) or the earlier rounds' case trees. Every engine's arguments were
judged by vLLM 0.34.0 (tests/differential/vllm_judge.py, tests/data/forks_heldout15/judge-cases.jsonl and
judge-results.jsonl); each case's README gives them and the verdict. A finding sits on the line that decides: the
written conflicting value's own line; when a framework or vLLM default is what conflicts (SkyRL's greedy eval
defaults, vLLM's raw_logprobs), the line that turns the mask on.

First run (the lead, on the integration branch merge-s42 at 4436c20, after forks round 13's fixes, before round 14's):
8 of 12 trees as expected (67%); of 6 trees with findings 2 exact, 4 missed (PENDING); 0 false findings; 6 of 6 clean
trees clean.

After the SkyRL fix (h-fxfkA, tests/test_forks_round14_readers.py): the SkyRL case passes with its expectation as
written, RPL101 and RPL102 at the mask line. The flow corpus's "greedy request: RPL101 alone" is for a written
top_k > 0 that vLLM resets for a greedy request; SkyRL sends its own top_k -1 with the greedy eval requests, which
fails vLLM's next check once the temperature is fixed, as in rounds 2 and 3's SkyRL greedy eval cases.
After the OpenRLHF, open-instruct and prime-rl fixes (h-fxfkB, tests/test_forks_round15_readers.py): open-instruct's
`default_factory` top_k read from the launch's export and prime-rl's `model_post_init` and eval sources pass; the
OpenRLHF case's expectation moved to no finding: the script exports the variable and then runs `ray job submit`,
whose runtime env sets no `env_vars`, and a submitting shell's exports do not reach a submitted job (Ray's docs;
readers/shell/ray_jobs.py), so whether the mask is on is unknown. 12 of 12 after.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout15"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_yaml_engine_kwargs_mask_recipe_raw_logprobs": {("RPL003", "examples/grpo_trainer/run_qwen2_5_3b_gsm8k_replay.sh", 14)},
    "verl_server_setdefault_mask_engine_kwargs_null_logprobs_dropped_clean": set(),
    "skyrl_env_factory_field_mask_eval_sampling_default_greedy": {
        ("RPL101", "skyrl/backends/skyrl_train/inference_servers/utils.py", 127),
        ("RPL102", "skyrl/backends/skyrl_train/inference_servers/utils.py", 127),
    },
    "skyrl_post_init_engine_init_kwargs_mask_eval_sampling_set_clean": set(),
    # Clean, not RPL003 at vllm_engine.py:297 as first written (fixes of s42): the script exports the variable
    # and then runs `ray job submit`, whose entrypoint runs on the cluster with the cluster's environment and
    # the runtime env's `env_vars` only (readers/shell/ray_jobs.py: what the submitting shell exports does not
    # travel); the runtime env here has none, so whether create_vllm_engines turns the mask on is not known.
    "openrlhf_env_mask_in_create_engines_without_correction_flag": set(),
    "openrlhf_mask_tied_to_logprobs_mode_top_k_default_in_dispatch_clean": set(),
    "nemo_vllm_kwargs_raw_logprobs_rewritten_by_vllm_cfg_clean": set(),
    "nemo_yaml_mask_key_recipe_yaml_top_k_zero": {("RPL102", "examples/configs/recipes/llm/grpo-math-1.5b-replay.yaml", 9)},
    "oi_sampling_config_top_k_env_factory_extra_body_clean": set(),
    "oi_launch_exports_top_k_zero_into_env_factory": {("RPL102", "scripts/train/debug/single_gpu_replay.sh", 3)},
    "prime_field_env_factory_mask_pin_removed_toml_top_k_setdefault_kept_clean": set(),
    "prime_subclass_post_init_mask_eval_source_top_k_zero": {("RPL102", "examples/reverse_text/rl_replay.toml", 31)},
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
