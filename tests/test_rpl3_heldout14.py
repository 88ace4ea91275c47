"""Fourteenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout14/ is a small tree written the way users start replay servers and send
requests, imitating real code read for this round (vllm-project/production-stack's Helm values, a Pulumi
`pulumi_docker.Container` with DSPy's `hosted_vllm` client as in stanfordnlp/dspy's docs, an AWS CDK ECS stack
in the `entryPoint`/`command` layout of 2017387-jh/vw-aws-cloud-service, a Fly.io app after
informaticker/vllm-fly, vllm-project/aibrix's quickstart model Deployment and Service, a checkpoint folder
served by a shell script, an Azure ML managed online deployment after csiebler's vLLM post, and
kubernetes-sigs/lws's vLLM LeaderWorkerSet), in spellings the earlier rounds' folder names do not show: the
mask as an item of the production stack's `vllmConfig.extraArgs` without scale-out (and its
`--enable-scale-out` twin), a `dspy.LM("hosted_vllm/...")` whose `api_base` comes from an INI file read by a
helper of another module, beside a Pulumi container publishing the replay server on localhost:8000 (and the
same tree with a client of `/inference/v1/generate`), a presence penalty in a module constant passed after
`--override-generation-config` in a CDK container's `command` (and neutral penalties), a repetition penalty in
a TOML file's `[sampling]` table sent as `sampling_params` by a worker started beside the server by a Fly
machine's start script (and 1.0), a thinking budget bound by `functools.partial` of a request helper posting
to an aibrix Service by name (and -1, unlimited), a top_k read from the served checkpoint folder's
`config.json` `vocab_size` into a class attribute of an `httpx.Client` subclass (and the folder's
`generation_config.json` top_k), trace replay appended to a bash array when an Azure ML deployment's
`environment_variables` say so (and "0"), and synthetic verification in a LeaderWorkerSet leader's `env:`
expanded into dotted `--speculative-config.*` words (and `standard`). Each `README` says what it imitates and
which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public code cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the production stack's chart
expanded to `vllm serve <modelURL> --host 0.0.0.0 --port 8000 --dtype ... --max-model-len ... <extraArgs>`;
the aibrix server without `--reasoning-parser qwen3`, for which the stand-in model has no tokenizer; the
checkpoint folder as its `vocab_size`; the Azure ML and LeaderWorkerSet launches with their environment
variables expanded, the latter with 16 stand-in GPUs and Qwen3-8B's heads). A finding that rests on a value
written elsewhere is expected at that value's line (a module constant, a TOML key, a `partial`'s keyword, a
class attribute, a container's env value), a client's finding at its call, a launch's finding at the word that
decides it (the mask's list item, the appended trace word).

First run (the lead, on the integration branch merge-s41 at ad17b12, after RPL3xx round 13's fixes): 10 of 16
cases as expected (62%); of 8 expected findings 3 exact, 5 missed (PENDING); 1 false finding: the Azure ML clean
twin's `args+=(--enable-trace-replay)` under `[[ "${REPLAY_TRACES:-0}" == "1" ]]` was reported "when" the test holds,
because the deployment YAML that sets `REPLAY_TRACES: "0"` for the image running the script is not read; 7 of 8
clean cases clean.

After h-fxr14 (RPL3xx round 14's fixes): 16 of 16 cases as expected, no expectation changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout14"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "production_stack_values_extra_args_mask_no_scale_out": {("RPL301", "helm/values-replay.yaml", 26)},
    "production_stack_values_extra_args_scale_out_clean": set(),
    "pulumi_docker_server_dspy_lm_api_base_from_ini": {("RPL301", "agent/lm.py", 14)},
    "pulumi_docker_server_dspy_lm_tree_also_reads_generate_clean": set(),
    # 2. requests that shift the distribution
    "cdk_ecs_container_override_presence_penalty": {("RPL302", "infra/policy_stack.py", 8)},
    "cdk_ecs_container_override_neutral_penalties_clean": set(),
    "flyio_start_script_generate_repetition_penalty_from_toml": {("RPL302", "config/rollout.toml", 9)},
    "flyio_start_script_generate_repetition_neutral_toml_clean": set(),
    # 3. thinking budget
    "aibrix_deployment_partial_request_helper_thinking_budget": {("RPL303", "rollout/collect.py", 11)},
    "aibrix_deployment_partial_thinking_budget_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "httpx_client_subclass_top_k_from_checkpoint_config_vocab": {("RPL304", "rollout/client.py", 15)},
    "httpx_client_subclass_top_k_from_generation_config_clean": set(),
    # 5. trace replay
    "azureml_online_deployment_env_toggles_trace_replay": {("RPL305", "docker/start.sh", 7)},
    "azureml_online_deployment_env_trace_replay_off_clean": set(),
    # 6. lossy speculative verification
    "leaderworkerset_speculative_env_vars_synthetic": {("RPL306", "k8s/lws.yaml", 24)},
    "leaderworkerset_speculative_env_vars_standard_clean": set(),
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
