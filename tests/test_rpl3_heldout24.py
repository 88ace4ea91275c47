"""Twenty-fourth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout24/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code as they are, with only the user's replay edit: a shell script with vLLM's
`python -m vllm.entrypoints.openai.api_server --model ...` form, vLLM's Docker doc as a compose service of
`vllm/vllm-openai` with an httpx `Client(base_url=...)` client, vLLM's `examples/basic/offline_inference/basic.py` and
`chat.py`, a systemd unit with vLLM's `--override-generation-config` JSON, a Makefile with `serve`/`rollout`
targets and a `requests` client of `/inference/v1/generate` with Qwen3's thinking-mode sampling, a GitHub Actions
job on a self-hosted GPU runner (`nohup ... &` server, `curl /health` wait), and vLLM's Kubernetes Deployment
written with an `args:` list and an n-gram `--speculative-config`. The findings: the mask without
`--enable-scale-out` (a shell launch), an httpx client of `/v1/completions` only on a compose replay server;
`frequency_penalty=0.5` in an offline `SamplingParams`, a `repetition_penalty` in a systemd unit's
`--override-generation-config`; `thinking_token_budget` in a `/inference/v1/generate` body; `top_k=262144` in
an offline `SamplingParams`; `--enable-trace-replay` in a workflow's server step; `synthetic` verification in a
Deployment's `args:`. Their clean twins: `--enable-scale-out`, a client of `/inference/v1/generate`,
`frequency_penalty=0.0`, an override of temperature and top_k only, `max_tokens` only, `top_k=1000`, trace replay
without the mask, n-gram speculation with vLLM's default (standard) verification.
Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): all server launches start (the api_server `--model` form with and
without `--enable-scale-out`, the compose server, the trace-replay servers with and without the mask, the n-gram
configs with `synthetic` plus `synthetic_acceptance_length` and without, both `--override-generation-config`
JSONs); the Makefile's server was judged without `--reasoning-parser qwen3`, for which the stand-in model has no
tokenizer (with it the judge stops at the tokenizer, not at a replay check); the offline engines (opt-125m,
Llama-3.2-1B-Instruct with the mask) build. The requests were validated in the judge's venv:
`SamplingParams(..., frequency_penalty=0.5)` and `top_k=262144` keep their values, and both `/inference/v1/generate`
bodies validate as `GenerateRequest` (the budget 4096 reaches `SamplingParams`). A finding on a request is
expected at the line of its deciding value (the one-line `SamplingParams`, the `thinking_token_budget` entry), a
`/v1/completions`-only client's at its `.post(` call, a launch's at the line of the deciding word (the shell
script's one-line launch, the `--override-generation-config` and `--enable-trace-replay` continuation lines, the
Deployment's JSON `args:` item after `--speculative-config`).

First run (the lead, main 6d512404, stop 45): 16 of 16 cases as expected (100%); 8 of 8 expected findings exact;
0 false findings; 8 of 8 clean cases clean. Written, as round 23, to imitate docs and deployments as people write them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout24"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "shell_api_server_module_mask_without_scale_out": {("RPL301", "scripts/launch_server.sh", 7)},
    "shell_api_server_module_mask_with_scale_out_clean": set(),
    "compose_server_httpx_completions_client_only": {("RPL301", "rollout.py", 7)},
    "compose_server_httpx_inference_generate_clean": set(),
    # 2. requests that shift the distribution
    "offline_llm_generate_frequency_penalty": {("RPL302", "generate_rollouts.py", 11)},
    "offline_llm_generate_neutral_frequency_penalty_clean": set(),
    "systemd_unit_override_generation_config_repetition_penalty": {("RPL302", "deploy/vllm.service", 14)},
    "systemd_unit_override_generation_config_temperature_clean": set(),
    # 3. thinking budget
    "makefile_server_requests_generate_thinking_budget": {("RPL303", "rollout.py", 14)},
    "makefile_server_requests_generate_max_tokens_only_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "offline_llm_chat_top_k_beyond_any_vocab": {("RPL304", "chat.py", 4)},
    "offline_llm_chat_top_k_1000_clean": set(),
    # 5. trace replay
    "actions_job_trace_replay_with_mask": {("RPL305", ".github/workflows/replay.yml", 24)},
    "actions_job_trace_replay_on_server_without_mask_clean": set(),
    # 6. lossy speculative verification
    "k8s_deployment_args_speculative_ngram_synthetic": {("RPL306", "k8s/deployment.yaml", 28)},
    "k8s_deployment_args_speculative_ngram_standard_clean": set(),
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
