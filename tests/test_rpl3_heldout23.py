"""Twenty-third held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout23/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code as they are, with only the user's replay edit: vLLM's Docker doc (an image
`FROM vllm/vllm-openai` with an exec-form `ENTRYPOINT ["vllm", "serve", ...]`), a docker compose service of the
`vllm/vllm-openai` image whose `command:` gives `--model ...`, vLLM's `openai_chat_completion_client.py`, vLLM's
Kubernetes doc (`command: ["/bin/sh", "-c"]` with the `vllm serve` line in `args`, the `vllm-server` Service), a
`requests` client of `/tokenize` and `/inference/v1/generate`, SkyPilot's vLLM `service.yaml`, vLLM's
`offline_inference/basic/basic.py` with Qwen3's thinking-mode sampling, a `scripts/serve.sh` serving a local
Qwen3-0.6B checkpoint (the hub's `config.json`), a systemd unit, a Makefile starting two servers, and GitHub Actions
jobs on a self-hosted GPU runner. The findings: the mask without `--enable-scale-out` (a Dockerfile), a chat-only
OpenAI client of a compose replay server; a `repetition_penalty` 1.05 in a module-level `sampling_params` dict posted
to a Kubernetes Service, a `presence_penalty` in `--override-generation-config`; `thinking_token_budget` in an
offline `SamplingParams`; `top_k` equal to the checkpoint's `vocab_size`; `--enable-trace-replay` in a systemd
`ExecStart`; `synthetic` verification in a workflow's `--speculative-config`. Their clean twins: the mask with
`--enable-scale-out`, a client of `/inference/v1/generate`, `repetition_penalty` 1.0, an override of temperature and
top_k only, the budget on an evaluation engine without the mask, `top_k` 1024, trace replay on a second server
without the mask, `synthetic` on a benchmark server without the mask.
Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): all 14 server launches start (the compose `--model` form, the
`--override-generation-config` JSONs, the n-gram config with `synthetic` and `synthetic_acceptance_length`, with
and without the mask, the local checkpoint with its `config.json`, trace replay with and without the mask); the
offline engines build with the mask and without it, judged without `reasoning_parser="qwen3"`, for which the
stand-in model has no tokenizer. The requests were validated in the judge's venv: as `GenerateRequest`,
`repetition_penalty` 1.05 and `top_k` 151936 reach `SamplingParams` unchanged, 1.0 is neutral; `SamplingParams(...,
thinking_token_budget=2048)` keeps the budget. A finding on a request is expected at the line of its deciding value
(the one-line `SamplingParams`, the `sampling_params` dict constant, the `top_k` entry), a chat-only client's at its
`.create(` call, a launch's at the line of the deciding word (the Dockerfile's one-line ENTRYPOINT, the
`--override-generation-config`, `--enable-trace-replay` and `--speculative-config` continuation lines).

First run (the lead, merge-s45 with round 22's fixes, stop 45): 16 of 16 cases as expected (100%); 8 of 8 expected
findings exact; 0 false findings; 8 of 8 clean cases clean. This round was written to measure code as people write it
(the repositories' and docs' own spellings), not to look for unusual ones as rounds 13-22 did.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout23"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "dockerfile_entrypoint_mask_without_scale_out": {("RPL301", "Dockerfile", 8)},
    "dockerfile_entrypoint_mask_with_scale_out_clean": set(),
    "compose_server_openai_chat_client_only": {("RPL301", "agent.py", 14)},
    "compose_server_requests_inference_generate_clean": set(),
    # 2. requests that shift the distribution
    "k8s_service_requests_generate_repetition_penalty": {("RPL302", "rollout.py", 6)},
    "k8s_service_requests_generate_neutral_penalty_clean": set(),
    "skypilot_service_override_generation_config_presence_penalty": {("RPL302", "service.yaml", 22)},
    "skypilot_service_override_generation_config_top_k_only_clean": set(),
    # 3. thinking budget
    "offline_llm_reasoning_parser_thinking_budget": {("RPL303", "generate_rollouts.py", 11)},
    "offline_thinking_budget_only_on_eval_engine_without_mask_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "shell_serve_local_checkpoint_generate_top_k_full_vocab": {("RPL304", "rollout.py", 12)},
    "shell_serve_local_checkpoint_generate_small_top_k_clean": set(),
    # 5. trace replay
    "systemd_unit_trace_replay_with_mask": {("RPL305", "deploy/vllm.service", 16)},
    "makefile_trace_replay_on_reference_server_without_mask_clean": set(),
    # 6. lossy speculative verification
    "actions_gpu_job_speculative_ngram_synthetic_with_mask": {("RPL306", ".github/workflows/replay-smoke.yml", 24)},
    "actions_gpu_job_speculative_ngram_synthetic_benchmark_without_mask_clean": set(),
}

# Cases waiting for a change, each with the reason; run as strict xfail.
PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 16)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
