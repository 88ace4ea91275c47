"""Held-out fork edits, round 4 (issue 27, item 4, "the tree is the framework").

Sixteen fork trees of tests/data/forks_heldout4/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py, NVIDIA-NeMo/RL @ 7ea279a, allenai/open-instruct @ e6c3044, and prime-rl's inference
server and configs) with the edit a user makes in a fork (`edits.patch`) and the launch the framework's examples
use. Six of the sixteen are clean. The edit forms are ones the earlier rounds' folder names do not name: verl's
mask returned by a hook of a server subclass the fork's replica starts, `VLLM_USE_V2_MODEL_RUNNER` in the
`runtime_env` `env_vars` of the server actor's `.options(...)`, a clamp of the request in the server's
`generate` that bounds every request (clean) and a `setdefault` there that changes nothing because verl's
agent loop always sends `top_k` and `temperature`; SkyRL's `args.logits_processors` set on the argument
namespace, its `speculative_config` dataclass default with fixed (clean) or adaptive verification; OpenRLHF's
nested `speculative_config` in `actor_kwargs`, a `return_sampling_mask: bool = True` parameter of
`create_vllm_engines` that no caller passes, with and without the launch's IS correction (which decides
`logprobs_mode`); NeMo-RL's mask in the `vllm.LLM(**llm_kwargs, ...)` call itself, a recipe speculative config
that the worker drops (0 tokens, clean) or keeps (3 tokens, adaptive); open-instruct's actor subclass that sets
the mask before its parent builds `AsyncEngineArgs`, without and with `top_k` in `extra_body`; prime-rl's
runner `setdefault` moved under a config flag that defaults to False (clean).

Each engine verdict is vLLM 0.34.0's own (tests/differential/vllm_judge.py on the arguments the framework's
code builds, written in each case's README); each request verdict is vLLM 0.34.0's `SamplingParams` plus the
replay request rule of v1/engine/input_processor.py:180-190.

Blindness: the cases and `EXPECTED` were written from the frameworks' source (the bases, and the upstream
repositories for the code outside them: verl's agent loop, OpenRLHF's train_ppo_ray.py, open-instruct's and
SkyRL's example scripts), vLLM 0.34.0 and the rule pages, before replaylint was run on any of them, without
reading src/replaylint/ or the earlier rounds' patches and READMEs (only their folder names, one round-3
`base` file, this module's round-3 model and tests/forks_trees.py). A finding sits on the line that decides:
the fork's line that turns the mask on when a framework default is what conflicts, the written value's own
line otherwise (a parameter default where the value is written; NeMo-RL's and open-instruct's request findings
where round 3 places them).

First run, before any fix: 7 of 16 cases as expected, 4 of 6 clean cases clean; of 12 expected findings
5 exact, 0 on another line, 7 missed, 4 false (as (code, file, line)). Missed: verl's mask returned by the
server subclass's hook (RPL101, RPL102), the runner variable in the server actor's `runtime_env` (RPL206);
SkyRL's `speculative_config` dataclass default with adaptive verification (RPL002); OpenRLHF's mask from a
parameter default of `create_vllm_engines`, without the IS correction (RPL003); NeMo-RL's mask in the
`vllm.LLM(**llm_kwargs, return_sampling_mask=True)` call (RPL102); open-instruct's mask set by the actor
subclass (RPL102). False: OpenRLHF's RPL002 a second time at vllm_engine.py:284 (the `"speculative_config": {`
line, besides the expected one at 288); NeMo-RL's RPL002 at grpo_math_1B.yaml:441 for a speculative config of
0 tokens that the worker drops (vllm_worker.py:383-391); verl's RPL101 and RPL102 at the launch's mask line
though the fork's `generate` clamps every request. After the run the three NeMo-RL launches were corrected
from examples/run_grpo_math.py (not in NeMo-RL @ 7ea279a) to examples/run_grpo.py, an imitation error found
while checking the false finding's truth; the expectations and the results did not change. The failing
cases are PENDING (strict xfail) so that a fix shows as an unexpected pass.

After the fixes (each generalising a fork reader, with its own tests in tests/test_forks_round4_readers.py):
16 of 16 cases as expected, 6 of 6 clean cases clean; of 12 expected findings 12 exact, 0 on another line,
0 missed, 0 false; PENDING is empty. What each fix reads: a hook spread into verl's `args` on the server
class the replica starts (`ray.remote(Subclass)`); the `VLLM_*` `env_vars` of a Ray actor's
`.options(runtime_env=...)`; what verl's `generate` does to each request before `SamplingParams` (a write
under a test of the request's own values); a dataclass `field(default_factory=lambda: {...})` default of a
replay key SkyRL passes from its config; a dict literal's own keys each at its line (one RPL002 at the
nested key); a parameter default of OpenRLHF's `create_vllm_engines` that its caller does not pass; the
literal keywords of NeMo-RL's engine call beside its `**` dict, and its writes to `vllm_kwargs` under an
`if` the recipe's values decide (the 0-token drop); the methods of the actor class open-instruct's
`create_vllm_engines` starts (an override, `super()`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import reported

CORPUS = Path(__file__).parent / "data" / "forks_heldout4"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
VERL_LAUNCH = "examples/grpo_trainer/run_qwen2-7b_replay.sh"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
SKYRL_CONFIG = "skyrl/train/config/config.py"
OPENRLHF_ENGINE = "openrlhf/trainer/ray/vllm_engine.py"
NEMO_RECIPE = "examples/configs/grpo_math_1B.yaml"
OI_UTILS = "open_instruct/vllm_utils.py"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_server_subclass_hook_mask_default_requests": {("RPL101", VERL_SERVER, 694), ("RPL102", VERL_SERVER, 694)},
    "verl_replica_runtime_env_runner_v1": {("RPL206", VERL_SERVER, 760)},
    "verl_generate_clamps_request_clean": set(),
    "verl_generate_setdefault_top_k_still_default": {("RPL101", VERL_LAUNCH, 23), ("RPL102", VERL_LAUNCH, 23)},
    "skyrl_cli_args_logits_processors_attribute": {("RPL001", SKYRL_UTILS, 152)},
    "skyrl_speculative_default_fixed_boundaries_clean": set(),
    "skyrl_speculative_default_adaptive_verification": {("RPL002", SKYRL_CONFIG, 1199)},
    "openrlhf_speculative_nested_dict_adaptive_verification": {("RPL002", OPENRLHF_ENGINE, 288)},
    "openrlhf_parameter_default_mask_clean": set(),
    "openrlhf_parameter_default_mask_no_correction": {("RPL003", OPENRLHF_ENGINE, 227)},
    "nemo_create_engine_call_mask_top_k_null": {("RPL102", NEMO_RECIPE, 373)},
    "nemo_recipe_speculative_zero_tokens_dropped_clean": set(),
    "nemo_recipe_speculative_adaptive_verification": {("RPL002", NEMO_RECIPE, 441)},
    "oi_actor_subclass_mask_no_top_k": {("RPL102", OI_UTILS, 1017)},
    "oi_actor_subclass_mask_extra_body_top_k_clean": set(),
    "prime_runner_setdefault_under_routed_experts_clean": set(),
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    folders = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
    assert folders == sorted(EXPECTED)
    clean = [case for case, findings in EXPECTED.items() if not findings]
    assert len(EXPECTED) == 16
    assert len(clean) * 3 >= len(EXPECTED), clean


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
