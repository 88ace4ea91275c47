"""Held-out fork edits, round 6 (issue 27, item 4, "the tree is the framework").

Ten fork trees of tests/data/forks_heldout6/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py, NVIDIA-NeMo/RL @ 7ea279a, allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447)
with the edit a user makes in a fork to turn replay on (`edits.patch`) and the launch the framework's
examples use. Four of the ten are clean. Forms: verl's mask as one more key of launch_server's `args` dict,
and under `if self.config.calculate_log_probs:` (on by the launch with the fork's rollout.yaml bounding the
requests; off by the fork's default); SkyRL's mask as a `default_factory` of `engine_init_kwargs`, with
vLLM's parser default logprobs_mode left in the namespace; OpenRLHF's mask in `actor_kwargs`, with its
request builder's `.get("top_k", -1)` kept or clamped to a bounded top_k; NeMo-RL's `llm_kwargs` reading a
new `vllm_cfg.return_sampling_mask` key turned on in the recipe, with `top_k: null` kept or set;
open-instruct's mask as a keyword of `.remote(...)` reaching `AsyncEngineArgs(**kwargs)`, its completions
requests without top_k; prime-rl's mask in `to_namespace` with bounded requests, its server.py's
`os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")` left untouched.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(docs/releases/0.34.0.md, vLLM 0.34.0's input_processor.py) before replaylint was run on any of them, without
reading its implementation (src/replaylint/) or the earlier rounds' case patches and READMEs. Every engine's
arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py); each case's README gives them and
the verdict. A finding sits on the line that decides: the fork's line that turns the mask on when a framework
or vLLM default is what conflicts, the written value's own line otherwise.

First run (the lead, on merge-a at e6d34f4): 7 of 10 cases as expected, 4 of 4 clean cases
clean; of 7 expected findings 5 exact, 1 at another line (OpenRLHF's RPL102 at the mask line of
vllm_engine.py:282, not samples_generator.py:206's `.get("top_k", -1)`), 1 missed (NeMo-RL's RPL102
at the recipe's `top_k: null` with the mask from a new `vllm_cfg` key), 1 false (prime-rl RPL102 at
configs/inference.py:616 beside the expected RPL206).

After the fixes (each generalising a fork reader, with its own tests in tests/test_forks_round6_readers.py):
10 of 10 cases as expected, 4 of 4 clean cases clean, after two expectations were corrected
by the frameworks' code (below): of 8 expected findings 8 exact, 0 missed, 0 false. NeMo-RL's worker keyword that reads a
`vllm_cfg` key (`self.cfg["vllm_cfg"].get("return_sampling_mask", False)`, or through a local name) takes
the recipe's value, else the code's default (`nemo_rl_fork._config_reads`). prime-rl's `to_sampling_args`
building `extra_body` as a dict display is read in Python's order, the last entry giving `top_k` winning
(`prime_rl_fork._sent_top_k`). Two expectations were wrong by the frameworks' code and are corrected: OpenRLHF's
`top_k=generate_kwargs.get("top_k", -1)` (samples_generator.py:206) is upstream's line, untouched by
`edits.patch`, so it is a framework default and sits on the fork's mask line (vllm_engine.py:282), as the
round's own rule, its verl case (rollout.yaml's top_k -1 at the mask line) and round 3's
`openrlhf_module_constant_mask_top_k_default` (the same `.get` at the mask line) have it. prime-rl's fork
writes `{"top_k": self.top_k, **self.extra_body}`, and `resolve_env_config` (orchestrator.py:654) has
already put `top_k=-1` in every policy-sourced env's `extra_body` (SamplingConfig.source defaults to
"policy", GRPO is the default algorithm): the spread comes last and wins, so every train request sends
top_k -1, refused by vLLM 0.34.0 (input_processor.py:185); the RPL102 at the mask line
(configs/inference.py:616) is right and the README's "bounded requests" is not.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from forks_trees import materialize

from replaylint.cli.main import main

CORPUS = Path(__file__).parent / "data" / "forks_heldout6"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
SKYRL_CONFIG = "skyrl/train/config/config.py"
OPENRLHF_SAMPLES = "openrlhf/trainer/ppo_utils/samples_generator.py"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_args_dict_mask_default_requests": {("RPL101", VERL_SERVER, 278), ("RPL102", VERL_SERVER, 278)},
    "verl_mask_under_calculate_log_probs_yaml_sampling_fixed_clean": set(),
    "verl_mask_under_calculate_log_probs_off_default_requests_clean": set(),
    "skyrl_engine_init_kwargs_default_factory_mask_raw_logprobs": {("RPL003", SKYRL_CONFIG, 1184)},
    "openrlhf_actor_kwargs_mask_builder_top_k_default": {("RPL102", "openrlhf/trainer/ray/vllm_engine.py", 282)},
    "openrlhf_builder_clamps_top_k_mask_clean": set(),
    "nemo_vllm_cfg_mask_key_recipe_top_k_null": {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)},
    "nemo_vllm_cfg_mask_key_recipe_top_k_set_clean": set(),
    "oi_remote_kwargs_mask_completions_no_top_k": {("RPL102", "open_instruct/vllm_utils.py", 1009)},
    "prime_namespace_mask_runner_setdefault_kept": {
        ("RPL206", "src/prime_rl/inference/server.py", 17),
        ("RPL102", "packages/prime-rl-configs/src/prime_rl/configs/inference.py", 616),
    },
}

PENDING: dict[str, str] = {}


def reported(case: str, work: Path) -> set[tuple[str, str, int]]:
    root = materialize(CORPUS / case, work / case)
    (root / ".git").mkdir()  # its repository
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return {
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in json.loads(out.getvalue())
    }


def test_every_folder_is_a_case_and_four_are_clean() -> None:
    folders = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
    assert folders == sorted(EXPECTED)
    clean = [case for case, findings in EXPECTED.items() if not findings]
    assert len(EXPECTED) == 10
    assert len(clean) >= 4, clean


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
    got = reported(case, tmp_path)
    want = EXPECTED[case]
    assert got == want, f"{case}: missed {sorted(want - got)}, false {sorted(got - want)}"
