"""Held-out fork edits, round 10 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout10/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py and train_ppo_ray.py, NVIDIA-NeMo/RL @ 7ea279a with examples/run_grpo.py,
allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447) with the edit a user makes in a fork to
turn replay on (`edits.patch`, most spread over two or three files) and the launch the framework's examples use.
Six of the twelve are clean. Forms: verl's mask from a subclass of vLLMHttpServer whose `launch_server` writes
into `config.engine_kwargs["vllm"]` before calling upstream's (vLLMReplica builds the subclass; the launch
samples validation and bounds top_k), and from `engine_kwargs.setdefault("return_sampling_mask", True)` inside
`launch_server` with the DAPO-style launch's `logprobs_mode=raw_logprobs`; SkyRL's mask and logprobs_mode as
typed InferenceEngineConfig fields defaulting to on, read in build_vllm_cli_args' overrides (eval off), and
switched by an environment variable the launch exports, with a logits processor passed through
`engine_init_kwargs`; OpenRLHF's `--vllm.return_sampling_mask` and `--rollout.top_k` flags carried through
create_vllm_engines and the generate kwargs (`ray job submit ... -- python3 -m openrlhf.cli.train_ppo_ray`), and a
helper returning the replay engine kwargs with `VLLM_USE_V2_MODEL_RUNNER=0` written in the actor's
`_configure_vllm_env` under the launch's `--train.full_determinism_enable`; NeMo-RL's mask read from a new
`vllm_cfg` key turned on by a recipe that inherits grpo_math_1B.yaml (`defaults:`) and leaves `top_k: null`,
and declared in grpo_math_1B.yaml itself (off) and read inside the `llm_kwargs` literal, turned on by the
launch's Hydra override; open-instruct's mask switched by an environment variable the fork's
create_vllm_engines puts in the actors' ray runtime_env, with a SamplingConfig `top_k` field defaulting to -1
sent in `extra_body`, and from a subclass of LLMRayActor overriding `_setup_and_start_async_engine` (top_k 50);
prime-rl's mask as a typed VllmConfig field with server.py's V1 setdefault removed (`uv run rl @ ...toml`,
top_k in the train `extra_body`), and as an InferenceConfig switch read in `to_namespace` with
`[inference.env_vars] VLLM_USE_V2_MODEL_RUNNER = "1"` and the train requests' top_k left at the orchestrator's
`setdefault("top_k", -1)`.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py:1262-1289, v1/engine/input_processor.py:180-190, the V1 runner's removal) before replaylint was
run on any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case patches
and READMEs. Every engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py,
tests/data/forks_heldout10/judge-cases.jsonl and judge-results.jsonl); each case's README gives them and the
verdict. A finding sits on the line that decides: the written conflicting value's own line (a value written in
a file of the tree, the fork's own code and config included); when a framework or vLLM default is what
conflicts, the line that turns the mask on.

First run (the lead, on main at b4c68cd): 7 of 12 trees as expected (58%); of 6 expected findings 1 exact, 5
missed (PENDING); 0 false findings; 6 of 6 clean trees clean.

Fixes (h-fxfk10b): NeMo-RL's worker writes to the engine dict under an `if` on a `vllm_cfg` key are decided by
the recipe (nemo_rl_fork `tested`); open-instruct's actor writes under a test of an environment variable are
decided by the literal `env_vars` of the actor's own `runtime_env`, and a request's `extra_body` `top_k` read
through a name (`top_k = params_dict.pop("top_k")`) is the `SamplingConfig` field's default (open_instruct_fork).
Precision twins: tests/test_forks_round10_nemo_oi.py. One expectation changed, by the project's rule on where a
finding sits (round 8's, tests/test_forks_heldout8.py): nemo_recipe_defaults_mask_top_k_null was written as
RPL102 at the recipe's switch (line 14, "a framework default conflicts"), but `top_k: null` is a value written in
a file of the tree, grpo_math_1B.yaml:373, which the recipe inherits through `defaults:`; a parent's written value
is reported at its own line with the inheriting file named, and the message names the switch ("as
`policy.generation.vllm_cfg.return_sampling_mask: true` asks").

Fixes (h-fxfk10a): verl's writes into the user's `engine_kwargs` inside `launch_server` before `args` spreads it
(a `setdefault` gives way to a key the rollout config or the launch writes; a write or `update` wins); SkyRL's
writes under a test of an environment variable the launching script exports (one it does not export stays
unknown); OpenRLHF's actor writing a `VLLM_*` variable under a test of a parameter its `__init__` passes from
`**kwargs`, decided by the command line's switch that reaches that key (frameworks/openrlhf_switches).
Precision twins: tests/test_forks_round10_readers.py. scripts/forks_judge.py judges all twelve trees (51 of 51
agree with vLLM 0.34.0). After both: 12 of 12.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import reported

CORPUS = Path(__file__).parent / "data" / "forks_heldout10"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_server_subclass_launch_override_val_sampled_clean": set(),
    "verl_engine_kwargs_setdefault_mask_launch_raw_logprobs": {("RPL003", "recipe/replay/run_qwen3_4b_dapo_replay.sh", 39)},
    "skyrl_engine_config_fields_default_on_eval_off_clean": set(),
    "skyrl_env_switch_mask_launch_logits_processor": {("RPL001", "examples/train/gsm8k/run_gsm8k_replay_think_budget.sh", 21)},
    "openrlhf_mask_flag_through_create_vllm_engines_top_k_flag_clean": set(),
    "openrlhf_replay_kwargs_helper_determinism_v1_runner_env": {("RPL206", "openrlhf/trainer/ray/vllm_engine.py", 102)},
    "nemo_recipe_defaults_mask_top_k_null": {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)},
    "nemo_yaml_default_field_in_llm_kwargs_launch_override_clean": set(),
    "oi_runtime_env_mask_switch_sampling_config_top_k_default": {("RPL102", "open_instruct/vllm_utils.py", 147)},
    "oi_actor_subclass_mask_extra_body_top_k_clean": set(),
    "prime_vllm_field_mask_v1_setdefault_dropped_extra_body_top_k_clean": set(),
    "prime_inference_switch_to_namespace_env_vars_v2_train_top_k_default": {("RPL102", "configs/basic/alphabet-sort/rl_replay.toml", 49)},
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
