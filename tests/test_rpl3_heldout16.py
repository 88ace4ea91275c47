"""Sixteenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout16/ is a small tree written the way users start replay servers and send
requests, imitating public docs and code read for this round (a Docker Swarm stack after Docker's "Deploy a stack
to a swarm" and compose's `generic_resources`, a GitLab CI `services:` entry after GitLab's Services docs with the
OpenAI SDK's `AsyncOpenAI`/`asyncio.gather` usage, pydantic-settings' `BaseSettings` with `env_prefix`, a Helm chart
after vLLM's chart-helm example installed with `-f values-prod.yaml`, a Jupyter notebook starting `vllm serve` in a
`%%bash` cell and querying it through requests-toolbelt's `BaseUrlSession`, an Ansible
`community.docker.docker_container` task running an offline rollout, a Kubernetes `Job` with `envFrom:
configMapRef` after Kubernetes' ConfigMap docs, and a Nomad job in the JSON of `nomad job run -output`), in
spellings the earlier rounds' folder names do not show: the mask as an item of a swarm stack's `command:` list
without scale-out (and with it), an `AsyncOpenAI` client built by a factory module from a `tomllib` base URL naming
a GitLab service alias, sampling `/v1/completions` (and an `httpx.AsyncClient` of `/inference/v1/generate`), a
presence penalty that is a `BaseSettings` field default (and 0.0), a repetition penalty in
`--override-generation-config` of a values file's `extraArgs` list that replaces the chart's (and 1.0), a thinking
budget that is an `argparse` default of another module read by `parse_args([])` in a notebook (and -1), a top_k
from a `tomllib` table splatted into `SamplingParams` equal to the checkpoint's `vocab_size` (and 1024), trace
replay from a ConfigMap value expanded unquoted in a Job's `/bin/sh -c` (and `--max-num-seqs 64`), and synthetic
verification as dotted `--speculative-config.*=` items of a Nomad task's `args` (and `standard`). Each `README`
says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public docs cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the stand-in model given Qwen3-8B's
`max_position_embeddings` where `--max-model-len` is set; the notebook's server without `--reasoning-parser
qwen3`, for which the stand-in model has no tokenizer; the checkpoint with its `vocab_size`; the synthetic
verification with its `synthetic_acceptance_length`, without which vLLM refuses it). A finding that rests on a
value written elsewhere is expected at that value's line (a settings field's default, an argparse default, a
TOML key, a values file's list item, a ConfigMap value), a client's finding at its call, a launch's finding at
the word that decides it (the mask's list item, the dotted word).

First run (the lead, on the integration branch merge-s42 at 9338469, after round 15's fixes): 11 of 16 cases as
expected (69%); of 8 expected findings 3 exact, 5 missed (PENDING); no false finding; 8 of 8 clean cases clean.
After the round's fixes (tests/test_rpl3_round16_launches.py): 16 of 16 as expected; no expectation changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout16"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "swarm_stack_deploy_command_list_mask_without_scale_out": {("RPL301", "deploy/docker-stack.yml", 15)},
    "swarm_stack_deploy_command_list_mask_with_scale_out_clean": set(),
    "gitlab_services_async_openai_gather_base_url_from_tomllib": {("RPL301", "rollout/generate.py", 12)},
    "gitlab_services_httpx_async_inference_generate_from_tomllib_clean": set(),
    # 2. requests that shift the distribution
    "pydantic_settings_env_prefix_presence_penalty_offline_llm": {("RPL302", "policy_rollout/settings.py", 11)},
    "pydantic_settings_env_prefix_neutral_presence_penalty_clean": set(),
    "helm_range_extra_args_values_prod_override_generation_config_repetition": {("RPL302", "chart/values-prod.yaml", 11)},
    "helm_range_extra_args_values_prod_neutral_repetition_clean": set(),
    # 3. thinking budget
    "notebook_bash_cell_serve_thinking_budget_argparse_default_module": {("RPL303", "rollout_args.py", 10)},
    "notebook_bash_cell_serve_thinking_budget_unlimited_default_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "ansible_container_offline_rollout_top_k_vocab_from_tomllib": {("RPL304", "conf/sampling.toml", 7)},
    "ansible_container_offline_rollout_top_k_below_vocab_clean": set(),
    # 5. trace replay
    "k8s_job_envfrom_configmap_replay_flags_trace_replay": {("RPL305", "k8s/replay-flags.yaml", 9)},
    "k8s_job_envfrom_configmap_replay_flags_max_num_seqs_clean": set(),
    # 6. lossy speculative verification
    "nomad_json_job_dotted_speculative_synthetic": {("RPL306", "nomad/policy.json", 32)},
    "nomad_json_job_dotted_speculative_standard_clean": set(),
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
