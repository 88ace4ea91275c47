"""Eleventh held-out round of the RPL3xx family (issue 29): what vLLM 0.34.0 accepts but replay cannot use.

Each folder of tests/data/rpl3_heldout11/ is a small tree written the way users start replay servers
and send requests, imitating real code read for this round (skypilot-org/skypilot's llm/vllm/service.yaml,
dstackai/dstack's `service.dstack.yml`, vllm-project/aibrix's quickstart model Deployment, start-wait-eval
scripts moved into a GitHub Actions job, aiohttp and httpx raw-JSON clients, `subprocess.Popen` launchers
of `vllm serve` word lists, `!nohup vllm serve` notebook cells, Makefile `serve:` targets, systemd
units), in spellings the earlier rounds' folder names do not show: the mask asked for in a SkyServe
`run:` block whose model comes from `envs:` (and its `--enable-scale-out` twin), a chat-completions
client whose URL is a constant of another module of the eval package a workflow runs (and its
`/inference/v1/generate` twin), a presence penalty in a dstack service's `--override-generation-config`
(and 0.0), a logit bias from a dataclass `default_factory` read through a module-level config object
into an aiohttp generate body (and every bias 0.0), a thinking budget in the dict a helper of another
module returns as `sampling_params` (and -1 in a notebook), a top_k equal to a multimodal Gemma 3
checkpoint's `text_config.vocab_size` in a Makefile's override (and 2^18, below it), trace replay
through a systemd `Environment=` variable split into `ExecStart=` words (and one from an
`EnvironmentFile=` outside the tree), and synthetic verification given by a container env var the
kubelet expands into a dotted `--speculative-config.rejection_sample_method=$(SPEC_REJECTION)` word
(and `block`). Each `README` says what it imitates and which vLLM 0.34.0 line decides.

Blindness: the cases and `EXPECTED` were written from vLLM 0.34.0's source, the rule pages
(docs/rules/RPL30*.md) and the public code cited, before replaylint was run on any of them and
without reading src/replaylint/ or the earlier rounds' case files. `EXPECTED` is the whole
answer for each case: every finding replaylint must report (code, file, line), and nothing else;
a case with none is clean. No case of this round is a `preview_*` case. Engines were judged with
tests/differential/vllm_judge.py (vLLM 0.34.0): every engine starts (the stand-in model given Qwen3's
40960 positions where `--max-model-len` asks for more than its 2048; without `--reasoning-parser qwen3`,
for which the stand-in model has no tokenizer; the Gemma 3 checkpoint as a text-only Gemma3ForCausalLM
stand-in with vocab_size 262208, the judge venv having no torchvision). A finding that rests on a value
written elsewhere is expected at that value's line (a helper's dict entry, a systemd `Environment=`
line, a container env `value:`), a request key whose value is an attribute of a config object at
the key (the established rule for module constants), a client's finding at its post, a launch's
finding at the word that decides it (the mask's word, the override's line).

First run (the lead, on main at b4c68cd): 14 of 16 cases as expected (88%); of 8 expected findings 6 exact,
1 at another line, 1 missed (a dstack `.dstack.yml` service's `commands:`); 0 false findings; 8 of 8 clean
cases clean. One expectation changed, by the corpus's rule on where a finding sits: the logit bias of
`aiohttp_generate_logit_bias_from_dataclass_default` is a dataclass field's default, which the corpus reports
at the field's line (rollout/sampling.py:10), as python_flow's h2_requests_dataclass_helper, h6_simple_parsing_top_k,
h8_dataclass_top_k_default_minus_one, h12_hfargparser_generation_dataclass_top_k_zero and
h14_easyr1_rollout_config_top_k_field_default do for a request value that is a field's default (the module
constant rule of round 10 is for a name bound once at module level, not a class's field).

Fixes (h-fxr11): the walk keeps `.dstack.yml`, `.dstack.yaml` and `.gitlab-ci.yml` among hidden files, and
dstack configurations (frontends/yaml/dstack: `commands`, `init`, replica groups, `env`, the image's release)
and GitLab CI pipelines (frontends/yaml/gitlab_ci) are read (tests/test_yaml_round11_dstack.py,
tests/test_yaml_round11_gitlab.py). After: 16 of 16.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import assert_case_findings, assert_cases_are_the_folders, assert_each_readme_says_what_it_imitates, held_out

CORPUS = Path(__file__).parent / "data" / "rpl3_heldout11"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    # 1. no endpoint returns the masks
    "skypilot_service_envs_api_server_mask_no_scale_out": {("RPL301", "service.yaml", 23)},
    "skypilot_service_envs_api_server_scale_out_clean": set(),
    "gha_workflow_eval_requests_chat_url_from_endpoints_module": {("RPL301", "evals/run_eval.py", 13)},
    "gha_workflow_eval_requests_generate_url_clean": set(),
    # 2. requests that shift the distribution
    "dstack_service_override_generation_config_presence_penalty": {("RPL302", ".dstack.yml", 16)},
    "dstack_service_override_generation_config_neutral_clean": set(),
    "aiohttp_generate_logit_bias_from_dataclass_default": {("RPL302", "rollout/sampling.py", 10)},
    "aiohttp_generate_logit_bias_zero_dataclass_default_clean": set(),
    # 3. thinking budget
    "subprocess_launcher_httpx_thinking_budget_from_helper": {("RPL303", "agent/sampling.py", 10)},
    "notebook_bang_serve_requests_thinking_budget_unlimited_clean": set(),
    # 4. top_k at or beyond the vocabulary
    "makefile_gemma3_checkpoint_override_top_k_equals_text_vocab": {("RPL304", "Makefile", 15)},
    "makefile_gemma3_checkpoint_override_top_k_2pow18_below_text_vocab_clean": set(),
    # 5. trace replay
    "systemd_unit_environment_trace_flags": {("RPL305", "deploy/vllm-replay.service", 12)},
    "systemd_unit_environment_file_trace_flags_clean": set(),
    # 6. lossy speculative verification
    "aibrix_deployment_spec_rejection_from_container_env_synthetic": {("RPL306", "k8s/model.yaml", 44)},
    "aibrix_deployment_spec_rejection_from_container_env_block_clean": set(),
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
