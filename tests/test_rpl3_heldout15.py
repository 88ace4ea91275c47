"""Fifteenth held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout15/ is a small tree written the way users start replay servers and send
requests, imitating real code read for this round (a Kustomize overlay's JSON 6902 `patches:` on a container's
`args` after computeops/k8s-mpi, CrewAI's `LLM(model=..., base_url=...)` from its LLM connections page, a
BentoML service building the engine in `__init__` after bentoml/rag-tutorials and bentoml/BentoVLLM, an
OpenShift Template with a Deployment and Service after rh-aiservices-bu's and nb-qbits/vllm-ocp-deploy's
OpenShift deployments, a Qwen2-VL checkpoint served by a script after thomas-roth/iTRAP, a Knative Service
after cuemby-labs' `knative-service.yaml.tpl`, a Podman Quadlet `.container` after dbrugger946's podman
launch and podman-quadlet-basic-usage(7), and an Airflow `KubernetesPodOperator` after MoShaaban13/dag-files),
in spellings the earlier rounds' folder names do not show: the mask appended by an overlay patch to a base
Deployment without scale-out (and the patch that also appends `--enable-scale-out`), a CrewAI agent whose
`hosted_vllm/` model and base URL come from a `.env` file loaded with python-dotenv by a settings module,
beside a compose server publishing 8000 (and the same tree with an `aiohttp` client of
`/inference/v1/generate`), a presence penalty set by `dataclasses.replace` of a frozen default config for
`SamplingParams` of a BentoML `AsyncLLM` with the mask (and a replace of the temperature only), a repetition
penalty in a module dict passed through `json.dumps` after `--override-generation-config` in a
`KubernetesPodOperator`'s `arguments` (and 1.0), a thinking budget assigned to `os.environ` in the client's
own module and posted by an `aiohttp` session to an OpenShift Template's Service by name (and -1), a top_k
equal to a VL checkpoint's `text_config.vocab_size` (no top-level `vocab_size`) in a constants module (and a
top_k below it), trace replay reaching a Knative container's `args` through `$(TRACE_REPLAY_FLAG)` expanded
from its `env` (and `--no-enable-trace-replay`), and synthetic verification as dotted `--speculative-config.*`
words continued over a Quadlet `Exec=` (and `standard`). Each `README` says what it imitates and which vLLM
0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public code cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the stand-in model given Qwen3-8B's
`max_position_embeddings` where `--max-model-len` is set; the OpenShift server without
`--reasoning-parser qwen3`, for which the stand-in model has no tokenizer; the VL checkpoint as a text
config with its `vocab_size`, the judge venv having no torchvision to inspect the VL architecture). A finding
that rests on a value written elsewhere is expected at that value's line (a `dataclasses.replace` keyword, a
dict entry, an `os.environ` assignment, a module constant, a container's env value), a client's finding at
its call, a launch's finding at the word that decides it (the overlay's patch value, the dotted word).

First run (the lead, on main at e995f4a): 10 of 16 cases as expected (62%); of 8 expected findings 2 exact,
1 at another line (the VL checkpoint's top_k reported at the request in `rollout/vl_sampler.py:13` instead of
the constant's own line), 5 missed (PENDING); no false finding; 8 of 8 clean cases clean.

Fixes of round 15 (h-fxr15, tests/test_rpl3_round15_launches.py): a constant spelled out in another module of
the tree is reported on its own line (the lead's decision for the VL top_k; rounds 4's and 10's thinking-budget
constants moved there too); Kustomize overlays' JSON 6902 patches read over their base; an Airflow
`KubernetesPodOperator` read as its pod's container, a `json.dumps(DICT)` word at the entry that decides; an
OpenShift Template's objects read as manifests (`${PARAM}` unknown) and a module's own top-level
`os.environ[NAME] = "..."` read by its functions; CrewAI's `LLM(model="hosted_vllm/...")` as a LiteLLM chat
client and `os.getenv` after a plain `load_dotenv()` as the tree's `.env` value; Podman Quadlet `.container`
units (`Image=`, `Exec=`). 16 of 16.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout15"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "kustomize_overlay_json_patch_adds_mask_without_scale_out": {("RPL301", "deploy/overlays/replay/kustomization.yaml", 13)},
    "kustomize_overlay_json_patch_adds_mask_and_scale_out_clean": set(),
    "crewai_hosted_vllm_llm_base_url_from_dotenv": {("RPL301", "agents/crew.py", 5)},
    "compose_crewai_agent_beside_aiohttp_generate_client_clean": set(),
    # 2. requests that shift the distribution
    "bentoml_async_engine_presence_penalty_from_dataclasses_replace": {("RPL302", "service.py", 9)},
    "bentoml_async_engine_dataclasses_replace_temperature_only_clean": set(),
    "airflow_kpo_override_generation_config_repetition_penalty_json_dumps": {("RPL302", "dags/rollout_server_dag.py", 11)},
    "airflow_kpo_override_generation_config_neutral_repetition_clean": set(),
    # 3. thinking budget
    "openshift_template_aiohttp_thinking_budget_from_os_environ": {("RPL303", "rollout/sampler.py", 6)},
    "openshift_template_aiohttp_thinking_budget_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "vl_checkpoint_text_config_vocab_top_k_httpx_generate": {("RPL304", "rollout/constants.py", 4)},
    "vl_checkpoint_top_k_below_text_config_vocab_clean": set(),
    # 5. trace replay
    "knative_service_args_expand_env_trace_replay_flag": {("RPL305", "knative/service.yaml", 27)},
    "knative_service_args_expand_env_no_trace_replay_clean": set(),
    # 6. lossy speculative verification
    "podman_quadlet_exec_dotted_speculative_synthetic": {("RPL306", "quadlet/vllm-policy.container", 20)},
    "podman_quadlet_exec_dotted_speculative_standard_clean": set(),
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
