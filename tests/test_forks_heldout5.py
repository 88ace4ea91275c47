"""Held-out fork edits, round 5 (issue 27, item 4, "the tree is the framework").

Sixteen fork trees of tests/data/forks_heldout5/, each a framework's upstream files
(tests/data/forks_base/: the same bases as rounds 3 and 4; OpenRLHF's cases add `openrlhf_rollout`, its
samples_generator.py) with the edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the
framework's examples use (verl's examples/grpo_trainer/run_qwen2-7b.sh, SkyRL's examples/train/gsm8k/run_gsm8k.sh,
OpenRLHF's examples/scripts/train_ppo_ray_hybrid_engine.sh, NeMo-RL's examples/run_grpo.py with its default recipe,
open-instruct's scripts/train/debug/grpo_fast.sh, prime-rl's examples/basic/reverse-text/rl.toml). Six of the
sixteen are clean. The forms are ones the earlier rounds' case names do not list: verl's n-gram speculative config
with adaptive verification added to the server's `args`, a mask whose value is computed from the config
(`self.config.logprobs_mode == "processed_logprobs"`) with the requests fixed by the launch's Hydra overrides, a
logits processor added to `args` while the mask comes from rollout.yaml; SkyRL's pass-through dict rebuilt as
`{"return_sampling_mask": True, ..., **get_config_as_dict(...)}` (with SkyRL's request defaults, and with the
launch fixing them), a typed `InferenceEngineConfig.return_sampling_mask` field that leaves vLLM's
raw_logprobs default in the namespace; OpenRLHF's batch-sharded sampling turned on beside the mask, the mask as a
keyword of `vllm.AsyncEngineArgs(*args, return_sampling_mask=True, **self.kwargs)` with and without
--algo.advantage.is_correction_enable; NeMo-RL's `vllm_kwargs.setdefault("return_sampling_mask", True)` with the
recipe's `top_k: null` and with `top_k: 50`, a recipe logits processor in `vllm_kwargs` beside a worker mask;
open-instruct's n-gram speculative config in the actor's `.remote(...)` keywords with fixed and with adaptive
verification; prime-rl's mask in `to_namespace` with top_k bounded in the launch TOML's `extra_body`, and a typed
`VllmConfig.logprobs_mode` field whose "raw_logprobs" default shadows `to_namespace`'s processed_logprobs.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(docs/releases/0.34.0.md, docs/rules/) before replaylint was run on any of them; src/replaylint/ and the earlier
rounds' case patches and READMEs were not read. Every engine finding is vLLM 0.34.0's verdict on the arguments the
framework's code passes (tests/differential/vllm_judge.py; judge_cases.jsonl and judge_verdicts.jsonl in the
corpus folder), every request finding vLLM 0.34.0's input_processor.py:180-190 on the request the framework builds.
A finding sits on the line that decides: the written conflicting value's own line (a dataclass field where it is
written); the fork's line that turns the mask on when a framework or vLLM default is what conflicts; NeMo-RL's
request finding at the recipe's `top_k: null`, where round 3 places it.

First run (the lead, on main at 331527b): 11 of 16 cases as expected, 6 of 6 clean cases clean;
of 11 expected findings 5 exact, 2 at another line (verl's RPL002 at vllm_async_server.py:310,
the `speculative_config` key, not 315, the adaptive-verification key; open-instruct's at
vllm_utils.py:1288, not 1292), 4 missed (NeMo-RL's RPL102 at the recipe's `top_k: null`; SkyRL's
RPL003 at a typed config field without `logprobs_mode`; SkyRL's RPL101 and RPL102 of the spread
engine kwargs with SkyRL's own request defaults), 0 false (7/11 found, 64%).

After the fixes (each generalising a fork reader, with its own tests in tests/test_forks_round5_readers.py):
16 of 16 cases as expected, 6 of 6 clean cases clean; of 11 expected findings 11 exact, 0 on another line,
0 missed, 0 false; PENDING is empty. What each fix reads: a `vllm_kwargs.setdefault(key, literal)` in
NeMo-RL's worker before the engine call (it holds where neither the recipe's `vllm_kwargs` nor a write
gives the key); a key SkyRL's `build_vllm_cli_args` passes as `ie_cfg.<key>` beside SkyRL's own (the
launch's `generator.inference_engine.<key>`, else the fork's `InferenceEngineConfig` field's literal
default at its line); a dict `build_vllm_cli_args` builds and copies onto vLLM's namespace with the
`engine_init_kwargs` pass-through spread in it (keys before the spread under the launch's, after it
over them, another `**` keeps the launch open); a dict literal the fork writes (verl's
`args["speculative_config"] = {...}`, open-instruct's actor keyword, NeMo-RL's worker keywords and
writes) with its own keys each at its line (the RPL002 at the nested key that decides).
`scripts/forks_judge.py`: 26 of 26 cases agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import reported

CORPUS = Path(__file__).parent / "data" / "forks_heldout5"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_CONFIG = "skyrl/train/config/config.py"
OPENRLHF_ENGINE = "openrlhf/trainer/ray/vllm_engine.py"
NEMO_RECIPE = "examples/configs/grpo_math_1B.yaml"
OI_UTILS = "open_instruct/vllm_utils.py"
PRIME_INFERENCE = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_ngram_speculative_adaptive_verification": {("RPL002", VERL_SERVER, 315)},
    "verl_mask_follows_logprobs_mode_launch_fixes_requests_clean": set(),
    "verl_yaml_mask_fork_logits_processor": {("RPL001", VERL_SERVER, 361)},
    "skyrl_engine_kwargs_spread_mask_default_requests": {("RPL101", SKYRL_UTILS, 159), ("RPL102", SKYRL_UTILS, 159)},
    "skyrl_engine_kwargs_spread_mask_launch_fixes_requests_clean": set(),
    "skyrl_config_field_mask_vllm_default_logprobs_mode": {("RPL003", SKYRL_CONFIG, 1145)},
    "openrlhf_batch_sharded_sampling_with_mask": {("RPL006", OPENRLHF_ENGINE, 284)},
    "openrlhf_engine_args_keyword_mask_correction_clean": set(),
    "openrlhf_engine_args_keyword_mask_no_correction": {("RPL003", OPENRLHF_ENGINE, 64)},
    "nemo_vllm_kwargs_setdefault_mask_top_k_null": {("RPL102", NEMO_RECIPE, 373)},
    "nemo_vllm_kwargs_setdefault_mask_recipe_top_k_clean": set(),
    "nemo_recipe_logits_processors_with_worker_mask": {("RPL001", NEMO_RECIPE, 437)},
    "oi_remote_ngram_speculative_fixed_boundaries_clean": set(),
    "oi_remote_ngram_adaptive_verification": {("RPL002", OI_UTILS, 1292)},
    "prime_to_namespace_mask_toml_extra_body_top_k_clean": set(),
    "prime_typed_logprobs_mode_field_shadows_processed_default": {("RPL003", PRIME_INFERENCE, 147)},
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_six_are_clean() -> None:
    folders = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
    assert folders == sorted(EXPECTED)
    clean = [case for case, findings in EXPECTED.items() if not findings]
    assert len(EXPECTED) == 16
    assert len(clean) >= 6, clean


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    for case in EXPECTED:
        assert (CORPUS / case / "README").read_text().startswith("Imitates"), case
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
