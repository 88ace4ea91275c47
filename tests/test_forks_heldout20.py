"""Held-out fork edits, round 20 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout20/, each a framework's upstream files (tests/data/forks_base/) with
the edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the framework's examples use.
Six of the twelve are clean.
Forms: verl's vLLMReplica with `VLLM_USE_V2_MODEL_RUNNER: "0"` added to the Ray runtime_env of the server actors
it creates (the framework's own code, not the launch), the mask from the YAML defaults' engine_kwargs; verl's new
Hydra key `sampling_mask: true` mapped onto the server's mask while upstream's greedy validation
(`val_kwargs.temperature: 0`) is kept and sent; verl's nested `replay.enable: false` key the launch leaves off
(clean); SkyRL's `dataclasses.replace` of the engine config inside build_vllm_cli_args adding the mask to
engine_init_kwargs, logprobs_mode left at vLLM's raw_logprobs; SkyRL's typed `return_sampling_mask: bool = False`
field (clean); OpenRLHF's rollout-actor subclass registered as `vllm_replay` and chosen by a new
`--vllm.engine_class` driver flag, without the correction flag that brings processed_logprobs; OpenRLHF's
`--rollout.return_sampling_mask` store_true flag the launch does not pass (clean); NeMo-RL's module-level replay
defaults merged under the recipe's vllm_kwargs, with a child YAML adding an adaptive-verification ngram
speculative_config; NeMo-RL's `vllm_cfg.return_sampling_mask: false` in the framework's YAML defaults (clean);
open-instruct's SamplingConfig grown a `top_k: int = -1` field sent in extra_body to a replay engine; open-instruct's
create_vllm_engines parameter `sampling_replay=False` no caller passes (clean); prime-rl's typed `[inference]
sampling_replay` field left off, with upstream's V1 pin removed (clean).

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py:1262-1290, v1/engine/input_processor.py:180-190, platforms/interface.py, docs/rules/) before
replaylint was run on any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case
trees. Every engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py,
tests/data/forks_heldout20/judge-cases.jsonl and judge-results.jsonl); each case's README gives them and the verdict.
A finding sits on the line that decides: the written conflicting value's own line; when vLLM's default is what
conflicts (raw_logprobs), the line that turns the mask on.

First run (the lead, at main 57abe06, stop 44): 8 of 12 trees as expected (67%); of 6 expected findings 2 exact, 1 at
another line (verl's greedy validation default reported at the fork's mask line, rollout.yaml:80 `sampling_mask: true`,
not at upstream's `val_kwargs.temperature: 0`, 148), 3 missed (PENDING); 0 false findings; 6 of 6 clean trees clean.
One expectation moved, by the rounds' rule on where a finding sits (a framework default the fork's patch leaves
untouched sits on the line that turns the mask on; rounds 2, 3, 7, 9, 11 and 12): the verl case's RPL101 at rollout.yaml:80.

After round 20's fixes (h-fxF20): one more expectation moved, by the same rule (a write under a switch off by default
that the launch turns on sits at the launch's word, the fork's line as its `via`; round 19's
openrlhf_driver_flag_logprobs_from_correction, round 9's SkyRL `if ie_cfg.KEY:`): the OpenRLHF subclass's
`kwargs["return_sampling_mask"] = True` (vllm_engine.py:214) runs only in the actor class `--vllm.engine_class
vllm_replay` picks (the option's default, "vllm", starts the upstream class), so RPL003 sits at that word,
train_grpo_replay_ray.sh:13, and its message names vllm_engine.py:214.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout20"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_replica_runtime_env_v1_pin": {("RPL206", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 760)},
    "verl_hydra_key_default_val_greedy": {("RPL101", "verl/trainer/config/rollout/rollout.yaml", 80)},
    "verl_replay_enable_key_off_clean": set(),
    "skyrl_dataclasses_replace_mask_raw_logprobs": {("RPL003", "skyrl/backends/skyrl_train/inference_servers/utils.py", 90)},
    "skyrl_typed_field_off_clean": set(),
    "openrlhf_replay_actor_class_flag": {("RPL003", "examples/scripts/train_grpo_replay_ray.sh", 13)},
    "openrlhf_store_true_flag_off_clean": set(),
    "nemo_worker_merged_defaults_adaptive_ngram": {("RPL002", "examples/configs/grpo_math_1B_ngram.yaml", 12)},
    "nemo_yaml_default_vllm_cfg_off_clean": set(),
    "oi_sampling_config_top_k_minus_one": {("RPL102", "open_instruct/vllm_utils.py", 141)},
    "oi_engine_param_off_clean": set(),
    "prime_typed_field_off_v1_pin_dropped_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
