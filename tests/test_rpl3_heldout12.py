"""Twelfth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout12/ is a small tree written the way users start replay servers
and send requests, imitating real code read for this round (kubernetes-sigs/gateway-api-inference-extension's
vLLM Deployment behind an InferencePool, Ray's SLURM `ray start` launcher with multi-node `vllm serve`,
rh-aiservices-bu/llm-on-openshift's KServe ServingRuntime, vLLM's Docker deployment in a compose file with
`x-` extension fields merged by `<<:`, argoproj/argo-workflows' `script:` templates with a git input artifact,
a GitHub Actions start-wait-probe job on a self-hosted GPU runner, GoogleCloudPlatform/vertex-ai-samples'
`deploy_model_vllm` with `aiplatform.Model.upload(serving_container_args=...)`, and vLLM's image extended by a
Dockerfile that passes a `--config` YAML), in spellings the earlier rounds' folder names do not show: the mask
as one `args:` item of an InferencePool's Deployment (and its `--enable-scale-out` twin), an OpenAI client built
by a factory of another module from host/port constants reading chat completions beside a server that opens
the scale-out route (and an httpx factory client posting to `/inference/v1/generate`), a repetition penalty
in a ServingRuntime's `--override-generation-config={...}` word (and 1.0), a frequency penalty in a module-level
dict of another module spread into a `requests` generate body (and 0.0), a thinking budget as a dataclass field
default sent through `asdict()` (and -1), a top_k equal to the vocabulary of a checkpoint folder the tree holds,
as a dataclass default (and the same top_k below a larger checkpoint's vocabulary), trace replay appended to
a Vertex AI container's args under a settings constant (and the constant False), and synthetic verification in
a nested `speculative-config:` block of a `--config` YAML (and synthetic only in a benchmark config without the
mask that no launch uses). Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public code cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the stand-in model given Qwen3's
40960 positions; without `--reasoning-parser qwen3`, for which the stand-in model has no tokenizer; the
SLURM launch with `--distributed-executor-backend mp` on 16 GPUs, the judge venv having no Ray, and
Qwen3-0.6B's 16 attention and 8 key-value heads; the checkpoint folders as their `vocab_size`; the `--config`
files from their paths in the tree). A finding that rests on a value written elsewhere is expected at that
value's line (a config module's dict entry, a dataclass field's default, a YAML config's key), a client's
finding at its call, a launch's finding at the word that decides it (the mask's item, the override's word,
the appended trace word).

First run (the lead, on the integration branch merge-s40 at cc1f8f5, after rounds 16, forks 10 and RPL3xx 11's
fixes): 14 of 16 cases as expected (88%); of 8 expected findings 6 exact, 2 missed (an Argo Workflow's
`script.source` that starts the server; a Vertex AI `Model.upload(serving_container_args=...)` launch); 0 false
findings; 8 of 8 clean cases clean.
After the fixes (h-fxr12; tests/test_rpl3_round12_launches.py): Argo Workflows' `script:` templates run by a
shell are read in their image with their `env` (frontends/yaml/argo), and Vertex AI's `Model.upload` is a
launch (flow/vertex_models); 16 of 16, no expectation changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout12"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "gie_inferencepool_deployment_api_server_mask_no_scale_out": {("RPL301", "config/manifests/vllm-deployment.yaml", 31)},
    "gie_inferencepool_deployment_api_server_mask_scale_out_clean": set(),
    "slurm_ray_head_openai_factory_chat_client": {("RPL301", "rollout/collect.py", 18)},
    "slurm_ray_head_httpx_factory_generate_clean": set(),
    # 2. requests that shift the distribution
    "kserve_servingruntime_override_repetition_penalty": {("RPL302", "serving/vllm-replay-runtime.yaml", 31)},
    "kserve_servingruntime_override_repetition_penalty_neutral_clean": set(),
    "compose_anchor_requests_generate_frequency_penalty_from_config_module": {("RPL302", "rollout/config.py", 10)},
    "compose_anchor_requests_generate_frequency_penalty_zero_clean": set(),
    # 3. thinking budget
    "argo_script_template_thinking_budget_dataclass_default": {("RPL303", "agent/sampling.py", 10)},
    "argo_script_template_thinking_budget_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "gha_checkpoint_config_top_k_equals_vocab_dataclass": {("RPL304", "eval/params.py", 9)},
    "gha_checkpoint_config_top_k_below_larger_vocab_clean": set(),
    # 5. trace replay
    "vertex_upload_container_args_trace_replay_from_settings": {("RPL305", "deploy/vertex_deploy.py", 28)},
    "vertex_upload_container_args_trace_replay_off_in_settings_clean": set(),
    # 6. lossy speculative verification
    "dockerfile_serve_config_yaml_nested_speculative_synthetic": {("RPL306", "configs/replay.yaml", 12)},
    "dockerfile_serve_config_yaml_synthetic_only_in_bench_config_clean": set(),
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
