"""Round 16's launches (tests/test_rpl3_heldout16.py): what a deployment of the tree hands a server.

- A Kubernetes container's `envFrom: configMapRef` names a ConfigMap of the manifest's folder (applied
  together, `kubectl apply -f k8s/`), as `configMapKeyRef` already did: its keys are the container's
  variables, placed at their values there. A ConfigMap the folder does not hold, or holds twice, keeps the
  environment open.
- A chart's extra values file (`values-prod.yaml`) that a helm command line of the tree gives with `-f`
  is merged over the chart's `values.yaml` as Helm merges it (a list replaced whole); no such command
  line, a later `-f` file setting the list, or a `--set` of it: no launch of that file.
- requests-toolbelt's `BaseUrlSession(base_url=...)` joins a posted path to its base with `urljoin`;
  an argparse default read through `parse_args([])` (argv spelt out) is decided, not a condition.
- A GitLab CI job's `services:` entry running the vLLM image is a replay server the job reaches by its
  `alias` and by the names GitLab derives from the image; not by `localhost`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.test_rpl3_round14_launches import judged

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout16"
K8S_ON = "k8s_job_envfrom_configmap_replay_flags_trace_replay"
K8S_OFF = "k8s_job_envfrom_configmap_replay_flags_max_num_seqs_clean"
HELM_ON = "helm_range_extra_args_values_prod_override_generation_config_repetition"
HELM_OFF = "helm_range_extra_args_values_prod_neutral_repetition_clean"
NOTEBOOK_ON = "notebook_bash_cell_serve_thinking_budget_argparse_default_module"
NOTEBOOK_OFF = "notebook_bash_cell_serve_thinking_budget_unlimited_default_clean"
GITLAB_ON = "gitlab_services_async_openai_gather_base_url_from_tomllib"
GITLAB_OFF = "gitlab_services_httpx_async_inference_generate_from_tomllib_clean"
MAP, JOB = "k8s/replay-flags.yaml", "k8s/rollout-job.yaml"
TRACE = ("RPL305", MAP, 9)
PROD, DEPLOY = "chart/values-prod.yaml", "deploy.sh"
PENALTY = ("RPL302", PROD, 11)
BUDGET = ("RPL303", "rollout_args.py", 10)
NOTEBOOK = "reasoning_rollouts.ipynb"
COMPLETIONS = ("RPL301", "rollout/generate.py", 12)
PIPELINE = ".gitlab-ci.yml"


def findings(tmp_path: Path, case: str, changes: dict | None = None, added: dict | None = None) -> list[tuple[str, str, int]]:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return [found[:3] for found in judged(tree, changes, added)]


# --- envFrom: a ConfigMap of the manifest's folder -----------------------------------------------


def test_envfrom_a_configmap_beside_the_job_turns_trace_replay_on(tmp_path: Path) -> None:
    assert findings(tmp_path, K8S_ON) == [TRACE]


def test_envfrom_a_configmap_without_trace_replay_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, K8S_OFF) == []


def test_a_kubernetes_expanded_variable_item_is_read_too(tmp_path: Path) -> None:
    args = '- >-\n              exec vllm serve "$MODEL_PATH"\n              --port "$VLLM_PORT"\n'
    args += "              --logprobs-mode processed_logprobs\n              --return-sampling-mask\n"
    args += "              --enable-scale-out\n              $REPLAY_FLAGS"
    items = "- $(MODEL_PATH)\n            - --logprobs-mode\n            - processed_logprobs\n"
    items += "            - --return-sampling-mask\n            - --enable-scale-out\n            - $(REPLAY_FLAGS)"
    text = (HELD_OUT / K8S_ON / JOB).read_text(encoding="utf-8").replace('command: ["/bin/sh", "-c"]', 'command: ["vllm", "serve"]')
    assert findings(tmp_path, K8S_ON, added={JOB: text.replace(args, items)}) == [TRACE]


def test_a_configmap_of_the_cluster_keeps_the_environment_open(tmp_path: Path) -> None:
    assert findings(tmp_path, K8S_ON, {JOB: ("name: replay-flags", "name: cluster-flags")}) == []


def test_a_secret_keeps_the_environment_open(tmp_path: Path) -> None:
    assert findings(tmp_path, K8S_ON, {JOB: ("configMapRef:", "secretRef:")}) == []


def test_a_configmap_two_files_define_decides_nothing(tmp_path: Path) -> None:
    other = (HELD_OUT / K8S_OFF / MAP).read_text(encoding="utf-8")
    assert findings(tmp_path, K8S_ON, added={"k8s/replay-flags-staging.yaml": other}) == []


# --- Helm: an extra values file given with -f ----------------------------------------------------


def test_values_prod_given_with_f_replaces_the_list(tmp_path: Path) -> None:
    assert findings(tmp_path, HELM_ON) == [PENALTY]


def test_values_prod_with_a_neutral_penalty_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, HELM_OFF) == []


def test_the_values_option_spelled_in_full_in_a_makefile(tmp_path: Path) -> None:
    makefile = "deploy:\n\thelm upgrade --install policy ./chart --values=chart/values-prod.yaml\n"
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / HELM_ON, tree)
    (tree / DEPLOY).unlink()
    assert [found[:3] for found in judged(tree, added={"Makefile": makefile})] == [PENALTY]


def test_a_values_file_no_command_line_gives_is_not_read(tmp_path: Path) -> None:
    assert findings(tmp_path, HELM_ON, {DEPLOY: ("  -f chart/values-prod.yaml \\\n", "")}) == []


def test_a_later_values_file_that_sets_the_list_wins(tmp_path: Path) -> None:
    later = "extraArgs:\n  - --return-sampling-mask\n  - --enable-scale-out\n"
    changes = {DEPLOY: ("-f chart/values-prod.yaml \\\n", "-f chart/values-prod.yaml -f chart/values-gpu.yaml \\\n")}
    assert findings(tmp_path, HELM_ON, changes, {"chart/values-gpu.yaml": later}) == []


def test_a_set_of_the_list_or_a_values_file_from_a_variable_is_unknown(tmp_path: Path) -> None:
    setting = {DEPLOY: ("--namespace rollout", "--set 'extraArgs={--enable-scale-out}' --namespace rollout")}
    assert findings(tmp_path, HELM_ON, setting) == []
    again = tmp_path / "again"
    variable = {DEPLOY: ("-f chart/values-prod.yaml \\\n", '-f chart/values-prod.yaml -f "$EXTRA_VALUES" \\\n')}
    assert findings(again, HELM_ON, variable) == []


# --- A notebook's BaseUrlSession -----------------------------------------------------------------


def test_a_budget_from_another_modules_argparse_default_that_parse_args_of_no_words_decides(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / NOTEBOOK_ON, tree)
    assert judged(tree) == [(*BUDGET, False)]  # `parse_args([])` never reads the command line: no "when"


def test_an_unlimited_budget_default_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, NOTEBOOK_OFF) == []


def test_a_base_url_session_of_another_port_ties_nothing(tmp_path: Path) -> None:
    changes = {"rollout_args.py": ('default="http://localhost:8000/"', 'default="http://localhost:9000/"')}
    assert findings(tmp_path, NOTEBOOK_ON, changes) == []


def test_a_base_url_session_given_its_url_positionally_and_an_absolute_path(tmp_path: Path) -> None:
    notebook = (HELD_OUT / NOTEBOOK_ON / NOTEBOOK).read_text(encoding="utf-8")
    notebook = notebook.replace("BaseUrlSession(base_url=args.server)", 'BaseUrlSession(\\"http://localhost:8000/v1/\\")')
    notebook = notebook.replace('\\"inference/v1/generate\\"', '\\"/inference/v1/generate\\"')
    assert "/inference/v1/generate" in notebook and "8000/v1/" in notebook
    assert findings(tmp_path, NOTEBOOK_ON, added={NOTEBOOK: notebook}) == [BUDGET]


# --- GitLab CI services ------------------------------------------------------------------------


def test_a_client_of_the_service_alias_reads_completions(tmp_path: Path) -> None:
    assert findings(tmp_path, GITLAB_ON) == [COMPLETIONS]


def test_a_client_of_the_generate_route_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, GITLAB_OFF) == []


def test_the_image_derived_hostname_reaches_the_service(tmp_path: Path) -> None:
    assert findings(tmp_path, GITLAB_ON, {"rollout.toml": ("http://vllm:8000", "http://vllm__vllm-openai:8000")}) == [COMPLETIONS]


def test_localhost_or_another_host_does_not_reach_the_service(tmp_path: Path) -> None:
    assert findings(tmp_path, GITLAB_ON, {"rollout.toml": ("http://vllm:8000", "http://localhost:8000")}) == []
    again = tmp_path / "again"
    assert findings(again, GITLAB_ON, {"rollout.toml": ("http://vllm:8000", "http://reward:8000")}) == []


def test_a_default_service_without_scale_out_is_reported_once(tmp_path: Path) -> None:
    pipeline = (HELD_OUT / GITLAB_OFF / PIPELINE).read_text(encoding="utf-8")
    service = pipeline[pipeline.index("  services:\n") : pipeline.index("  variables:\n")]
    moved = pipeline.replace(service, "").replace(
        "stages:\n", "default:\n" + service.replace('        - "--enable-scale-out"\n', "") + "\nstages:\n"
    )
    moved += "\nsecond-job:\n  stage: rollout\n  script:\n    - echo done\n"
    found = findings(tmp_path, GITLAB_OFF, added={PIPELINE: moved})
    assert [(code, path) for code, path, _ in found] == [("RPL301", PIPELINE)]


# --- Nomad jobs in JSON ----------------------------------------------------------------------------

NOMAD_ON = "nomad_json_job_dotted_speculative_synthetic"
NOMAD_OFF = "nomad_json_job_dotted_speculative_standard_clean"
NOMAD = "nomad/policy.json"
SYNTHETIC = ("RPL306", NOMAD, 32)


def test_a_nomad_docker_tasks_dotted_synthetic_verification(tmp_path: Path) -> None:
    assert findings(tmp_path, NOMAD_ON) == [SYNTHETIC]


def test_a_nomad_docker_tasks_standard_verification_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, NOMAD_OFF) == []


def test_the_job_object_without_its_wrapper_and_the_podman_driver(tmp_path: Path) -> None:
    job = (HELD_OUT / NOMAD_ON / NOMAD).read_text(encoding="utf-8")
    unwrapped = job.replace('{\n  "Job": {', "{\n", 1).rstrip().removesuffix("}").rstrip() + "\n"  # the lines stay
    assert findings(tmp_path, NOMAD_ON, {NOMAD: (job, unwrapped.replace('"docker"', '"podman"'))}) == [SYNTHETIC]


def test_an_entrypoint_of_another_image_that_runs_vllm(tmp_path: Path) -> None:
    changes = {NOMAD: ('"image": "vllm/vllm-openai:v0.34.0",', '"image": "python:3.12", "entrypoint": ["vllm", "serve"],')}
    assert findings(tmp_path, NOMAD_ON, changes) == [SYNTHETIC]


def test_a_task_of_another_driver_or_an_interpolated_word_is_not_known(tmp_path: Path) -> None:
    assert findings(tmp_path, NOMAD_ON, {NOMAD: ('"Driver": "docker"', '"Driver": "raw_exec"')}) == []
    again = tmp_path / "again"
    interpolated = {NOMAD: ("rejection_sample_method=synthetic", "rejection_sample_method=${NOMAD_META_method}")}
    assert findings(again, NOMAD_ON, interpolated) == []


def test_a_service_word_the_runner_expands_is_unknown(tmp_path: Path) -> None:
    changes = {PIPELINE: ('        - "--enable-scale-out"\n', '        - "$SCALE_OUT_FLAG"\n')}
    assert findings(tmp_path, GITLAB_OFF, changes) == []
