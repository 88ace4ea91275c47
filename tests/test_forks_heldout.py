"""Held-out fork edits (issue 27, item 4, "the tree is the framework").

Each folder of tests/data/forks_heldout/ is a small fork tree: real files of verl, SkyRL, OpenRLHF,
NeMo-RL, open-instruct and prime-rl (fetched from their repositories at the commits each README
names) with the edit a user makes to turn replay on in the framework's own source, or a complete
valid edit, or an unrelated one, and the launch the framework's examples use (a trainer script or
an rl.toml). Its `README` says what it imitates and what vLLM 0.34.0 does with it. They were
written before replaylint's fork readers and fork tests were read; the expectations come from
vLLM's rules (docs/releases/0.34.0.md, ../shared/spec/). `EXPECTED` is the whole answer per case:
every finding (code, file, line) and nothing else; a case with none is clean. A finding sits on
the line that decides: the fork's line that turns the mask on when a framework default is what
conflicts, the conflicting value's own line when it is written somewhere.

First run, before any fix (the commit that added this module): 13 of 25 cases as expected, 11 of
11 clean cases clean; of 16 expected findings 3 exact, 9 at the launch script's (or NeMo-RL's
config's) line instead of the fork's deciding line (verl, SkyRL, open-instruct, NeMo-RL's
environment write), 4 missed (the three prime-rl cases: prime-rl's own package is not read; an
OpenRLHF fork's mask without `--algo.advantage.is_correction_enable`, whose `logprobs_mode` stays
unset); 1 false (open-instruct's raw logprobs mode reported at the script as well as at the
fork's line).
After the fixes (prime-rl's own package read in place of the built-in edition, `prime_rl_fork`):
15 of 25 cases as expected, 11 of 11 clean cases clean, 5 of 16 findings exact, 0 false among
the passing cases. The other 10 are in tests/data/forks_heldout_pending/ (PENDING below, each
run as a strict xfail): 8 found at the launch (script or config) rather than at the fork's
deciding line, one of them twice; 2 still missed (an OpenRLHF fork without a pin, a prime-rl mask
turned on by the fork's own field default in an rl.toml the prefilter skips).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

CORPUS = Path(__file__).parent / "data" / "forks_heldout"
PENDING_CORPUS = Path(__file__).parent / "data" / "forks_heldout_pending"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_server_mask_clean": set(),
    "verl_rollout_yaml_engine_kwargs_clean": set(),
    "verl_server_seed_unrelated_clean": set(),
    "skyrl_overrides_mask_clean": set(),
    "skyrl_overrides_unrelated_clean": set(),
    "openrlhf_actor_kwargs_mask_is_correction_clean": set(),
    "openrlhf_actor_kwargs_mask_logits_processors": {("RPL001", "openrlhf/trainer/ray/vllm_engine.py", 283)},
    "openrlhf_actor_kwargs_dtype_unrelated_clean": set(),
    "nemo_llm_kwargs_mask_top_k_null": {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)},
    "nemo_llm_kwargs_mask_clean": set(),
    "nemo_raw_then_config_processed_clean": set(),
    "oi_actor_mask_extra_body_top_k_clean": set(),
    "prime_setdefault_removed_clean": set(),
    "prime_setdefault_runner_v1_kept": {("RPL206", "src/prime_rl/inference/server.py", 17)},
    "prime_to_namespace_default_raw": {("RPL003", "packages/prime-rl-configs/src/prime_rl/configs/inference.py", 613)},
}

# Cases not yet passing, in tests/data/forks_heldout_pending/ (its README says what happens instead);
# their expectations are kept as written before the first run.
PENDING: dict[str, set[tuple[str, str, int]]] = {
    "verl_server_mask_default_requests": {
        ("RPL101", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 289),
        ("RPL102", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 289),
    },
    "verl_server_mask_raw_logprobs": {("RPL003", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 277)},
    "skyrl_overrides_mask_no_logprobs_mode": {("RPL003", "skyrl/backends/skyrl_train/inference_servers/utils.py", 122)},
    "skyrl_overrides_mask_default_requests": {
        ("RPL101", "skyrl/backends/skyrl_train/inference_servers/utils.py", 122),
        ("RPL102", "skyrl/backends/skyrl_train/inference_servers/utils.py", 122),
    },
    "openrlhf_actor_kwargs_mask_no_is_correction": {("RPL003", "openrlhf/trainer/ray/vllm_engine.py", 282)},
    "nemo_worker_env_runner_v1": {("RPL206", "nemo_rl/models/generation/vllm/vllm_worker.py", 426)},
    "oi_actor_mask_no_top_k": {("RPL102", "open_instruct/vllm_utils.py", 1009)},
    "oi_actor_mask_raw_logprobs": {("RPL003", "open_instruct/vllm_utils.py", 1285)},
    "oi_runtime_env_runner_v1": {("RPL206", "open_instruct/vllm_utils.py", 1265)},
    "prime_vllm_config_mask_field_no_top_k": {("RPL102", "packages/prime-rl-configs/src/prime_rl/configs/inference.py", 60)},
}


def reported(case: str, corpus: Path = CORPUS) -> set[tuple[str, str, int]]:
    root = corpus / case
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return {
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in json.loads(out.getvalue())
    }


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    folders = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
    assert folders == sorted(EXPECTED)
    assert sorted(path.name for path in PENDING_CORPUS.iterdir() if path.is_dir()) == sorted(PENDING)
    every = {**EXPECTED, **PENDING}
    clean = [case for case, findings in every.items() if not findings]
    assert len(every) >= 20
    assert len(clean) * 3 >= len(every), clean


def test_every_case_says_what_it_imitates() -> None:
    for case in EXPECTED:
        assert "Imitates" in (CORPUS / case / "README").read_text(), case
    for case in PENDING:
        assert "Imitates" in (PENDING_CORPUS / case / "README").read_text(), case
        assert f"{case}:" in (PENDING_CORPUS / "README").read_text(), case


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_case_findings(case: str) -> None:
    got = reported(case)
    want = EXPECTED[case]
    assert got == want, f"{case}: missed {sorted(want - got)}, false {sorted(got - want)}"


@pytest.mark.xfail(strict=True, reason="pending: tests/data/forks_heldout_pending/README")
@pytest.mark.parametrize("case", sorted(PENDING))
def test_pending_case_findings(case: str) -> None:
    assert reported(case, PENDING_CORPUS) == PENDING[case]
