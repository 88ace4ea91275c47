"""Ninth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout9/ is a small tree written the way users start replay servers
and send requests, imitating real code read for this round (huggingface/open-r1's Makefile,
vllm-project/vllm docs/deployment/docker.md, nginx.md and k8s.md and
examples/online_serving/openai_chat_completion_client.py, ray-project/ray's Serve vLLM
deployments, skypilot-org/skypilot llm/vllm task YAMLs, systemd units and serve scripts of public
repositories, compose stacks with a `.env` file), in spellings the earlier rounds' folder names
do not show: `vllm serve` in a Makefile recipe with the mask in a Make variable, an OpenAI client
built by a factory in another module from a YAML config's base URL, a generate body made with
`dataclasses.asdict` of a frozen dataclass whose default sets `presence_penalty` and sent through
an nginx proxy path, a Ray Serve deployment's `SamplingParams(**cfg["sampling"])` with a YAML
`logit_bias` (and its all-zero twin), a thinking budget as a dataclass default in a SkyPilot
`run:` block's collector (and -1, read as no budget), `thinking_budget` inside
`chat_template_kwargs` (not vLLM's field), `top_k` set to the `vocab_size` read from the tree's
config.json, 2^17 below a local Qwen2.5 vocabulary beside a non-replay Llama judge server, trace
replay in a systemd `Environment=` variable and in a compose `.env` file, and lossy speculative
verification in a Kubernetes ConfigMap expanded into dotted `--speculative-config.KEY=$(VAR)`
words and in a `--config` YAML baked into a Dockerfile (with FLy only on a second, non-replay
image as the clean twin). Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public code cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts; the judge's stand-in model
cannot build a tokenizer for `--reasoning-parser qwen3`, so the three servers with a reasoning
parser were judged without it (each README says so). A finding that rests on a value written
elsewhere is expected at that value's line (a dataclass default, a YAML key, a `.env` or
`Environment=` value, a ConfigMap entry), as the rule pages' "the line that decides".

First run (the lead, on main at d3e0c6f): 12 of 20 cases as expected (60%); of 10 expected
findings 2 exact, 2 at another line (a Makefile's launch line instead of the variable's value that asks
for the mask; a systemd unit's next line), 6 missed; 0 false findings; 10 of 10 clean cases clean.
PENDING below.

After the fixes (h-fxr, tests/test_rpl3_round9_readings.py): 7 of the 8 misses pass, no expectation
changed: a Make variable's value and a switch that is one variable's whole value (systemd
`Environment=`) are reported where written; compose's `.env` values; `configMapKeyRef` values from a
ConfigMap of the folder and `--opt=$(VAR)` at the value; `json.loads(PATH.read_text())` and RPL304 of a
top_k that is the model's own `vocab_size` at the request; a Ray Serve deployment's `__call__` read
with what `.bind(...)` gave; clients behind a compose nginx gateway, and a body from an uncalled
function's parameter default. The client factory case stays PENDING (its reason below).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout9"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "makefile_replay_flags_var_no_scale_out": {("RPL301", "Makefile", 4)},
    "makefile_replay_flags_var_scale_out_clean": set(),
    "compose_client_factory_yaml_base_url_chat_only": {("RPL301", "rl/rollout.py", 13)},
    "compose_client_factory_yaml_base_url_generate_clean": set(),
    # 2. requests that shift the distribution
    "nginx_proxy_path_dataclass_presence_penalty": {("RPL302", "rollout/config.py", 10)},
    "nginx_proxy_path_dataclass_presence_penalty_neutral_clean": set(),
    "ray_serve_yaml_sampling_logit_bias": {("RPL302", "configs/policy.yaml", 11)},
    "ray_serve_yaml_sampling_logit_bias_zero_clean": set(),
    # 3. thinking budget
    "skypilot_run_generate_settings_thinking_budget": {("RPL303", "settings.py", 10)},
    "skypilot_run_generate_settings_thinking_budget_unlimited_clean": set(),
    "github_actions_chat_template_kwargs_thinking_budget_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "shell_client_top_k_from_config_json_vocab": {("RPL304", "sample.py", 14)},
    "popen_local_qwen25_top_k_2pow17_below_vocab_clean": set(),
    # 5. trace replay
    "systemd_environment_trace_args": {("RPL305", "deploy/vllm-policy.service", 11)},
    "systemd_environment_trace_args_empty_clean": set(),
    "compose_dotenv_trace_flag": {("RPL305", ".env", 3)},
    # 6. lossy speculative verification
    "k8s_env_dotted_spec_synthetic": {("RPL306", "deploy/configmap.yaml", 7)},
    "k8s_env_dotted_spec_block_clean": set(),
    "dockerfile_config_yaml_spec_fly": {("RPL306", "config/rollout.yaml", 10)},
    "dockerfile_two_configs_fly_without_mask_clean": set(),
}

# Cases waiting for a change, each with the reason; run as strict xfail.
PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_a_third_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED, 20)


def test_every_case_says_what_it_imitates() -> None:
    assert_each_readme_says_what_it_imitates(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str) -> None:
    assert_case_findings(CORPUS, EXPECTED, case)
