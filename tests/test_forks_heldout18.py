"""Held-out fork edits, round 18 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout18/, each a framework's upstream files (tests/data/forks_base/) with
the edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the framework's examples use.
Five of the twelve are clean.
Forms: verl's rollout server subclassed (`ReplayvLLMHttpServer.run_server` sets the mask on the parsed namespace and
calls super()) with rollout.yaml's top_k -1 and greedy validation defaults, and verl's mask from
`os.environ.get("VERL_SAMPLING_REPLAY", "1")` with a later line in generate() replacing top_k <= 0 by 50 and a sampled
validation (clean); SkyRL's new `InferenceEngineConfig.return_sampling_mask` field turned on by the launch, with
top_k 50 and the framework's greedy eval default, the mask from `SKYRL_RETURN_SAMPLING_MASK` (default "0", exported)
with evaluation turned off by the launch (clean), and a `replay_engine_kwargs()` helper that leaves logprobs_mode at
vLLM's raw_logprobs; OpenRLHF's mask in RolloutRayActor.__init__ from an env default "1" with
`setdefault("logprobs_mode", "processed_logprobs")` and the sampler's top_k default 50 (clean); NeMo-RL's YAML mask next
to an adaptive-verification speculative_config that the launch zeroes (num_speculative_tokens=0) and the worker drops
(clean), and the worker's mask from `vllm_cfg.get("return_sampling_mask", True)` with a launch override
`logprobs_mode=processed_logits`; open-instruct's mask in _setup_and_start_async_engine with the completions'
extra_body top_k read from OI_REPLAY_TOP_K, which the launch exports as -1, and a `ReplayLLMRayActor` subclass adding
the mask and an adaptive-verification ngram speculative_config before super(); prime-rl's mask in to_namespace from an
env default "1" with the V1 pin removed and a greedy `[orchestrator.eval.sampling]` in the run's TOML, and a typed
`VllmConfig.return_sampling_mask` field whose setup_vllm_env pops the framework's V1 pin (clean).

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py:1262-1290, v1/engine/input_processor.py:180-190, docs/rules/) before replaylint was run on any of them,
without reading its implementation (src/replaylint/) or the earlier rounds' case trees. Every engine's arguments were
judged by vLLM 0.34.0 (tests/differential/vllm_judge.py, tests/data/forks_heldout18/judge-cases.jsonl and
judge-results.jsonl); each case's README gives them and the verdict. A finding sits on the line that decides: the
written conflicting value's own line; when a framework or vLLM default is what conflicts (verl's rollout.yaml top_k
and validation temperature, SkyRL's greedy eval default, vLLM's raw_logprobs), the line that turns the mask on.
First run (stop 43, on main 30d26b1): of 7 cases with findings 4 exact, 3 missed; 1 false finding (prime-rl clean case:
RPL206 though a later line pops the V1 pin); 4 of 5 clean trees clean (PENDING).

Fixes (h-fxF1): a subclass of verl's rollout server that the replica starts and that sets vLLM's parsed namespace
in `run_server` before `super().run_server(args)` (fork_classes.parameter_writes). Precision twins:
tests/test_forks_round17_readers.py.
Fixes (h-fxF2, tests/test_forks_round18_readers.py): a later `os.environ.pop`/`del` of a variable a fork wrote leaves
it unknown; prime-rl's `os.environ.get("X", "1") == "1"` in `to_namespace` holds by its default when the launching
script leaves X unset; open-instruct's request `int(os.environ["X"])` is read as the actor's runtime env has it.
After both: 12 of 12, no expectation changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout18"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_subclass_run_server_mask_rollout_defaults": {
        ("RPL101", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 689),
        ("RPL102", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 689),
    },
    "verl_env_default_mask_generate_clamps_top_k_clean": set(),
    "skyrl_config_field_mask_eval_greedy_default": {("RPL101", "examples/train/gsm8k/run_gsm8k_replay.sh", 22)},
    "skyrl_env_mask_eval_disabled_by_launch_clean": set(),
    "skyrl_helper_engine_kwargs_without_logprobs_mode": {("RPL003", "skyrl/backends/skyrl_train/inference_servers/utils.py", 61)},
    "openrlhf_actor_init_mask_setdefault_logprobs_clean": set(),
    "nemo_yaml_adaptive_spec_dropped_by_zero_tokens_clean": set(),
    "nemo_worker_mask_default_on_launch_processed_logits": {("RPL003", "examples/run_grpo_replay.sh", 8)},
    "oi_setup_engine_mask_launcher_env_top_k": {("RPL102", "scripts/train/debug/single_gpu_replay.sh", 5)},
    "oi_subclass_actor_adaptive_speculative": {("RPL002", "open_instruct/vllm_utils.py", 954)},
    "prime_namespace_env_mask_eval_greedy_toml": {("RPL101", "configs/replay/rl.toml", 38)},
    "prime_config_field_mask_pops_v1_pin_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
