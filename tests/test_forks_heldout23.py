"""Held-out fork edits, round 23 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout23/, each a framework's upstream files (tests/data/forks_base/) with
the smallest edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the framework's examples
use. Six of the twelve are clean.
Forms: verl's `vLLMHttpServer.launch_server` args with `"return_sampling_mask": True` while the launch overrides
`actor_rollout_ref.rollout.logprobs_mode=raw_logprobs`; the same fork with rollout.yaml's processed_logprobs and bounded
rollout and validation sampling (clean); SkyRL's `build_vllm_cli_args` overrides with the mask and processed_logprobs
and a launch n-gram `speculative_config` in dotted keys with `enable_adaptive_verification=true`; the same with fixed verification
(clean); OpenRLHF's mask added unconditionally to `actor_kwargs` of create_vllm_engines with the correction flag off
(logprobs_mode unset) and upstream's requests sending top_k -1; the same fork with the correction flag on and the
request default top_k 50 (clean); NeMo-RL's `return_sampling_mask=True` in `llm_kwargs` with the launch exporting
`VLLM_USE_V2_MODEL_RUNNER=0`; the same without the variable and `policy.generation.top_k=50` (clean); open-instruct's
`kwargs["return_sampling_mask"] = True` in `_setup_and_start_async_engine` with requests without top_k; the mask as
`engine_args.return_sampling_mask = True` with `"top_k": 20` in the request's extra_body (clean); prime-rl's
`to_namespace` setting the mask with server.py's V1 pin removed and the rl TOML's eval sampling `temperature = 0.0`;
the same with eval temperature 0.6 (clean).

Blindness: the cases and `EXPECTED` were written from the frameworks' files (tests/data/forks_base/) and vLLM 0.34.0's
rules (config/vllm.py:1262-1289, v1/engine/input_processor.py:180-190, docs/rules/) before replaylint was run on any
of them, without reading its implementation (src/replaylint/) or the earlier rounds' case trees. Every engine's
arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py, tests/data/forks_heldout23/judge-cases.jsonl
and judge-results.jsonl); each case's README gives them and the verdict.
A finding sits on the line that decides: the written conflicting value's own line; when a framework or vLLM
default is what conflicts, the line that turns the mask on (open-instruct's request without top_k at its
`completions.create(` call, as rounds 1, 19 and 22).

First run (the lead, main c2fdb69 with the lead's speed commits, stop 45): 12 of 12 trees as expected (100%); 7 of 7
expected findings exact; 0 false findings; 6 of 6 clean trees clean. Written, as round 22, as the smallest edit a
user makes near the framework's engine construction or config.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout23"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_args_mask_launch_raw_logprobs": {("RPL003", "examples/grpo_trainer/run_qwen2_5_0_5b_grpo_replay.sh", 21)},
    "verl_args_mask_sampling_bounded_clean": set(),
    "skyrl_overrides_mask_launch_adaptive_ngram": {("RPL002", "examples/train/gsm8k/run_gsm8k_replay.sh", 24)},
    "skyrl_overrides_mask_fixed_ngram_clean": set(),
    "openrlhf_actor_kwargs_mask_correction_off": {
        ("RPL003", "openrlhf/trainer/ray/vllm_engine.py", 282),
        ("RPL102", "openrlhf/trainer/ray/vllm_engine.py", 282),
    },
    "openrlhf_actor_kwargs_mask_request_top_k_clean": set(),
    "nemo_llm_kwargs_mask_launch_v1_runner": {("RPL206", "examples/run_grpo_math_1B_replay.sh", 5)},
    "nemo_llm_kwargs_mask_top_k_override_clean": set(),
    "oi_engine_kwargs_mask_requests_without_top_k": {("RPL102", "open_instruct/vllm_utils.py", 1010)},
    "oi_engine_args_attribute_mask_top_k_clean": set(),
    "prime_namespace_mask_eval_greedy": {("RPL101", "configs/basic/reverse-text/rl_replay.toml", 33)},
    "prime_namespace_mask_eval_sampled_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
