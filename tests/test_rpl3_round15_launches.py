"""Round 15's launches (tests/test_rpl3_heldout15.py): Kustomize overlays and constants of another module.

A Kustomize overlay (`kustomization.yaml` with `resources:` naming its base and JSON 6902 patches
`op: add` on `/spec/template/spec/containers/N/args/-`) is read as `kubectl apply -k` deploys it: the
base's container with the patch's words, each placed at the patch's `value`. Any other change of the
container leaves the launch open-ended; the base alone is judged as written.

A constant another module of the tree spells out (`TOP_K = 152064` in `rollout/constants.py`) is
reported on its own line, the written value; one of the same module stays where it is used."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.test_rpl3_round14_launches import judged

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout15"
OVERLAY_ON = "kustomize_overlay_json_patch_adds_mask_without_scale_out"
OVERLAY_OFF = "kustomize_overlay_json_patch_adds_mask_and_scale_out_clean"
VL_ON = "vl_checkpoint_text_config_vocab_top_k_httpx_generate"
VL_OFF = "vl_checkpoint_top_k_below_text_config_vocab_clean"
OVERLAY = "deploy/overlays/replay/kustomization.yaml"
BASE = "deploy/base/deployment.yaml"
PATCH_OPS = """      - op: add
        path: /spec/template/spec/containers/0/args/-
        value: --return-sampling-mask"""


def findings(tmp_path: Path, case: str, changes: dict | None = None, added: dict | None = None) -> list[tuple[str, str, int]]:
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return [found[:3] for found in judged(tree, changes, added)]


# --- Kustomize overlays ----------------------------------------------------------------------------


def test_an_overlay_patch_that_adds_the_mask_is_reported_at_its_value(tmp_path: Path) -> None:
    assert findings(tmp_path, OVERLAY_ON) == [("RPL301", OVERLAY, 13)]


def test_an_overlay_patch_that_adds_scale_out_too_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, OVERLAY_OFF) == []


def test_a_patch_inserting_the_mask_at_an_index(tmp_path: Path) -> None:
    changes = {OVERLAY: ("containers/0/args/-", "containers/0/args/1")}
    assert findings(tmp_path, OVERLAY_ON, changes) == [("RPL301", OVERLAY, 13)]


def _with_patch_file(words: str) -> dict[str, str]:
    """The overlay adding the mask, with a `patchesJson6902` entry whose patch file adds `words`."""
    more = "patchesJson6902:\n  - target:\n      group: apps\n      version: v1\n      kind: Deployment\n      name: policy-vllm\n"
    more += "    path: more-args.json\n"
    patch = f'[{{"op": "add", "path": "/spec/template/spec/containers/0/args/-", "value": "{words}"}}]\n'
    overlay = (HELD_OUT / OVERLAY_ON / OVERLAY).read_text(encoding="utf-8") + "\n" + more
    return {OVERLAY: overlay, "deploy/overlays/replay/more-args.json": patch}


def test_a_patches_json6902_file_is_read(tmp_path: Path) -> None:
    assert findings(tmp_path, OVERLAY_ON, added=_with_patch_file("--enable-scale-out")) == []
    again = tmp_path / "again"
    assert findings(again, OVERLAY_ON, added=_with_patch_file("--disable-log-requests")) == [("RPL301", OVERLAY, 13)]


def test_the_legacy_patches_json6902_field_inline(tmp_path: Path) -> None:
    changes = {OVERLAY: ("patches:\n", "patchesJson6902:\n")}
    assert findings(tmp_path, OVERLAY_ON, changes) == [("RPL301", OVERLAY, 13)]


def test_a_patch_of_another_deployment_changes_nothing(tmp_path: Path) -> None:
    assert findings(tmp_path, OVERLAY_ON, {OVERLAY: ("name: policy-vllm", "name: reward-vllm")}) == []


def test_another_change_of_the_container_leaves_the_launch_open(tmp_path: Path) -> None:
    more = '\n      - op: replace\n        path: /spec/template/spec/containers/0/command\n        value: [/bin/sh, -c, "$(START)"]'
    assert findings(tmp_path, OVERLAY_ON, {OVERLAY: (PATCH_OPS, PATCH_OPS + more)}) == []


def test_a_strategic_merge_patch_leaves_the_launch_open(tmp_path: Path) -> None:
    merge = "  - path: scale-out.yaml\n"
    changes = {OVERLAY: ("patches:\n", "patches:\n" + merge)}
    added = {"deploy/overlays/replay/scale-out.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: policy-vllm\n"}
    assert findings(tmp_path, OVERLAY_ON, changes, added) == []


def test_a_base_from_a_remote_url_is_not_read(tmp_path: Path) -> None:
    changes = {OVERLAY: ("  - ../../base", "  - https://github.com/example/deploy//base?ref=v1")}
    assert findings(tmp_path, OVERLAY_ON, changes) == []


def test_the_base_alone_is_judged_as_written(tmp_path: Path) -> None:
    changes = {BASE: ("- --logprobs-mode=processed_logprobs", "- --logprobs-mode=processed_logprobs\n            - --return-sampling-mask")}
    added = {OVERLAY: "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../base\n"}
    assert findings(tmp_path, OVERLAY_ON, changes, added) == [("RPL301", BASE, 26)]


# --- constants of another module -----------------------------------------------------------------


def test_a_constant_of_another_module_is_reported_on_its_own_line(tmp_path: Path) -> None:
    assert findings(tmp_path, VL_ON) == [("RPL304", "rollout/constants.py", 4)]


def test_a_constant_below_the_text_config_vocabulary_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, VL_OFF) == []


def test_a_module_attribute_constant_is_reported_on_its_own_line(tmp_path: Path) -> None:
    changes = {
        "rollout/vl_sampler.py": ("from rollout.constants import MAX_NEW_TOKENS, TOP_K", "from rollout import constants"),
    }
    sampler = HELD_OUT / VL_ON / "rollout" / "vl_sampler.py"
    text = sampler.read_text(encoding="utf-8").replace(*changes["rollout/vl_sampler.py"])
    text = text.replace('"top_k": TOP_K, "max_tokens": MAX_NEW_TOKENS', '"top_k": constants.TOP_K')
    assert findings(tmp_path, VL_ON, added={"rollout/vl_sampler.py": text}) == [("RPL304", "rollout/constants.py", 4)]


def test_a_constant_of_the_same_module_stays_where_it_is_used(tmp_path: Path) -> None:
    changes = {"rollout/vl_sampler.py": ("from rollout.constants import MAX_NEW_TOKENS, TOP_K", "MAX_NEW_TOKENS = 4096\nTOP_K = 152064")}
    assert findings(tmp_path, VL_ON, changes) == [("RPL304", "rollout/vl_sampler.py", 14)]


def test_a_constant_read_from_the_environment_stays_unknown(tmp_path: Path) -> None:
    changes = {"rollout/constants.py": ("TOP_K = 152064", 'import os\nTOP_K = int(os.environ["TOP_K"])')}
    assert findings(tmp_path, VL_ON, changes) == []


# --- Airflow KubernetesPodOperator -----------------------------------------------------------------

KPO_ON = "airflow_kpo_override_generation_config_repetition_penalty_json_dumps"
KPO_OFF = "airflow_kpo_override_generation_config_neutral_repetition_clean"
DAG = "dags/rollout_server_dag.py"


def test_a_pod_operator_override_is_reported_at_the_dict_entry(tmp_path: Path) -> None:
    assert findings(tmp_path, KPO_ON) == [("RPL302", DAG, 11)]


def test_a_pod_operator_with_a_neutral_penalty_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, KPO_OFF) == []


def test_a_pod_operator_without_scale_out_is_reported_at_the_mask(tmp_path: Path) -> None:
    changes = {DAG: ('    "--enable-scale-out",\n', "")}
    assert sorted(findings(tmp_path, KPO_ON, changes)) == [("RPL301", DAG, 18), ("RPL302", DAG, 11)]


def test_the_older_provider_module_is_read_too(tmp_path: Path) -> None:
    changes = {DAG: ("operators.pod import", "operators.kubernetes_pod import")}
    assert findings(tmp_path, KPO_ON, changes) == [("RPL302", DAG, 11)]


def test_a_templated_argument_leaves_the_pod_open(tmp_path: Path) -> None:
    changes = {DAG: ('    "--enable-scale-out",\n', '    "{{ params.extra_flags }}",\n')}
    assert findings(tmp_path, KPO_ON, changes) == [("RPL302", DAG, 11)]  # no RPL301: the template may add scale-out


def test_another_libraries_pod_operator_is_not_read(tmp_path: Path) -> None:
    changes = {DAG: ("from airflow.providers.cncf.kubernetes.operators.pod import", "from ops.k8s import")}
    assert findings(tmp_path, KPO_ON, changes) == []


def test_another_image_without_cmds_is_open(tmp_path: Path) -> None:
    own = {DAG: ('image="vllm/vllm-openai:v0.34.0",\n        cmds=["vllm", "serve"],', 'image="ghcr.io/acme/policy:1",')}
    without_scale_out = {DAG: ('    "--enable-scale-out",\n', "")}
    assert ("RPL301", DAG, 18) in findings(tmp_path, KPO_ON, without_scale_out)
    tree = tmp_path / "again"
    shutil.copytree(HELD_OUT / KPO_ON, tree)
    judged(tree, without_scale_out)
    assert [found[:3] for found in judged(tree, own) if found[0] == "RPL301"] == []  # its entrypoint is not known


# --- OpenShift Templates and a module's own environment writes ---------------------------------------

OS_ON = "openshift_template_aiohttp_thinking_budget_from_os_environ"
OS_OFF = "openshift_template_aiohttp_thinking_budget_unlimited_clean"
SAMPLER = "rollout/sampler.py"
TEMPLATE = "openshift/vllm-policy-template.yaml"
WRITE = 'os.environ["THINK_BUDGET"] = "1024"\n'
BUDGET = ("RPL303", SAMPLER, 6)


def test_an_environment_write_of_the_module_is_the_value_read(tmp_path: Path) -> None:
    assert findings(tmp_path, OS_ON) == [BUDGET]


def test_an_unlimited_budget_written_the_same_way_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, OS_OFF) == []


def test_a_lookup_with_a_default_reads_the_write(tmp_path: Path) -> None:
    changes = {SAMPLER: ('int(os.environ["THINK_BUDGET"])', 'int(os.getenv("THINK_BUDGET", "-1"))')}
    assert findings(tmp_path, OS_ON, changes) == [BUDGET]


def test_a_write_under_a_test_is_not_known(tmp_path: Path) -> None:
    changes = {SAMPLER: (WRITE, 'if os.name == "posix":\n    ' + WRITE)}
    assert findings(tmp_path, OS_ON, changes) == []


def test_a_dotenv_file_loaded_leaves_the_variable_open(tmp_path: Path) -> None:
    changes = {SAMPLER: (WRITE, WRITE + "from dotenv import load_dotenv\nload_dotenv(override=True)\n")}
    assert findings(tmp_path, OS_ON, changes) == []


def test_a_module_near_that_names_the_variable_leaves_it_open(tmp_path: Path) -> None:
    added = {"rollout/main.py": 'import os\nimport sys\n\nos.environ["THINK_BUDGET"] = sys.argv[1]\nfrom rollout.sampler import main\n'}
    assert findings(tmp_path, OS_ON, added=added) == []


def test_a_read_at_import_before_the_write_is_not_known(tmp_path: Path) -> None:
    changes = {SAMPLER: (WRITE, 'BUDGET = int(os.environ["THINK_BUDGET"])\n' + WRITE)}
    changes_use = {SAMPLER: ('int(os.environ["THINK_BUDGET"])', "BUDGET")}
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / OS_ON, tree)
    assert judged(tree, changes) == [(*BUDGET[:2], 7, False)]  # the function's own read still follows the write
    assert judged(tree, changes_use) == []


def test_a_template_parameter_in_the_words_is_not_known(tmp_path: Path) -> None:
    no_scale_out = {TEMPLATE: ("                - --enable-scale-out\n", "")}
    assert ("RPL301", TEMPLATE, 38) in findings(tmp_path, OS_ON, no_scale_out)
    parameter = {TEMPLATE: ("- --enable-scale-out", "- ${EXTRA_ARGS}")}
    assert [f for f in findings(tmp_path / "again", OS_ON, parameter) if f[0] == "RPL301"] == []


def test_a_list_of_manifests_is_read_as_its_items(tmp_path: Path) -> None:
    text = (HELD_OUT / OS_ON / TEMPLATE).read_text(encoding="utf-8")
    head, objects = text.split("objects:\n")
    listed = "apiVersion: v1\nkind: List\nitems:\n" + objects
    assert findings(tmp_path, OS_ON, added={TEMPLATE: listed}) == [BUDGET]


# --- CrewAI's LLM and a .env loaded by python-dotenv ----------------------------------------------

CREW_ON = "crewai_hosted_vllm_llm_base_url_from_dotenv"
CREW_OFF = "compose_crewai_agent_beside_aiohttp_generate_client_clean"
CREW = ("RPL301", "agents/crew.py", 5)
SETTINGS = "agents/settings.py"


def test_a_crewai_llm_addressed_by_the_dotenv_file_reads_chat_completions(tmp_path: Path) -> None:
    assert findings(tmp_path, CREW_ON) == [CREW]


def test_a_client_of_the_generate_route_beside_it_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, CREW_OFF) == []


def test_a_crewai_llm_spelt_out(tmp_path: Path) -> None:
    settings = 'BASE_URL = "http://localhost:8000/v1"\nMODEL = "hosted_vllm/Qwen/Qwen3-8B"\n'
    assert findings(tmp_path, CREW_ON, added={SETTINGS: settings}) == [CREW]


def test_a_variable_the_dotenv_file_lacks_stays_open(tmp_path: Path) -> None:
    assert findings(tmp_path, CREW_ON, {".env": ("VLLM_BASE_URL=http://localhost:8000/v1\n", "")}) == []


def test_a_dotenv_file_of_another_path_or_overriding_stays_open(tmp_path: Path) -> None:
    assert findings(tmp_path, CREW_ON, {SETTINGS: ("load_dotenv()", 'load_dotenv("/etc/rollout.env")')}) == []
    assert findings(tmp_path / "again", CREW_ON, {SETTINGS: ("load_dotenv()", "load_dotenv(override=True)")}) == []


def test_another_provider_is_not_a_client_of_the_server(tmp_path: Path) -> None:
    assert findings(tmp_path, CREW_ON, {".env": ("hosted_vllm/", "anthropic/")}) == []


def test_a_sampling_keyword_not_read_leaves_the_client_open(tmp_path: Path) -> None:
    changes = {"agents/crew.py": ("temperature=1.0)", "temperature=1.0, top_p=0.9, seed=7)")}
    assert findings(tmp_path, CREW_ON, changes) == [CREW]  # RPL301 is about the route, which the keywords do not change


# --- Podman Quadlet units --------------------------------------------------------------------------

QUADLET_ON = "podman_quadlet_exec_dotted_speculative_synthetic"
QUADLET_OFF = "podman_quadlet_exec_dotted_speculative_standard_clean"
UNIT = "quadlet/vllm-policy.container"


def test_a_quadlet_exec_is_read_after_the_images_entrypoint(tmp_path: Path) -> None:
    assert findings(tmp_path, QUADLET_ON) == [("RPL306", UNIT, 20)]


def test_a_quadlet_with_standard_verification_is_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, QUADLET_OFF) == []


def test_a_quadlet_without_scale_out(tmp_path: Path) -> None:
    changes = {UNIT: (" processed_logprobs --enable-scale-out \\", " processed_logprobs \\")}
    assert findings(tmp_path, QUADLET_ON, changes) == [("RPL301", UNIT, 16), ("RPL306", UNIT, 20)]


def test_a_quadlet_service_variable_in_exec(tmp_path: Path) -> None:
    changes = {UNIT: ("=synthetic \\", "=${METHOD} \\")}
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / QUADLET_ON, tree)
    assert judged(tree, changes) == []  # a variable the unit does not set
    assert [f[:2] for f in judged(tree, {UNIT: ("[Service]\n", "[Service]\nEnvironment=METHOD=synthetic\n")})] == [("RPL306", UNIT)]


def test_a_quadlet_entrypoint_or_other_image_is_not_read(tmp_path: Path) -> None:
    entrypoint = {UNIT: ("ContainerName=vllm-policy\n", "ContainerName=vllm-policy\nEntrypoint=/opt/start.sh\n")}
    assert findings(tmp_path, QUADLET_ON, entrypoint) == []
    image = {UNIT: ("docker.io/vllm/vllm-openai:v0.34.0", "ghcr.io/acme/policy-server:1")}
    assert findings(tmp_path / "again", QUADLET_ON, image) == []
