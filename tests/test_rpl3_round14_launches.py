"""Round 14's launches (tests/test_rpl3_heldout14.py's Azure ML cases).

A shell script an image of the tree runs is judged with the variables the Azure ML online
deployment that builds the image starts it with: the deployment's `environment.build.path` is
the folder of a `Dockerfile` that copies the script in and names it in its `ENTRYPOINT` or `CMD`,
and its `environment_variables` are the script's exported variables. A variable the deployment
does not set, a value Azure ML fills in, or two deployments that disagree leave the script's
test of it to the outside (the finding says "when")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.test_configuration import run

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout14"
AZURE_ON = "azureml_online_deployment_env_toggles_trace_replay"
AZURE_OFF = "azureml_online_deployment_env_trace_replay_off_clean"
TRACE = ("RPL305", "docker/start.sh", 7)


def findings(
    tmp_path: Path, case: str, changes: dict[str, tuple[str, str]] | None = None, added: dict[str, str] | None = None
) -> list[tuple[str, str, int, bool]]:
    """`judged` of a copy of a held-out case's tree."""
    tree = tmp_path / "tree"
    shutil.copytree(HELD_OUT / case, tree)
    return judged(tree, changes, added)


def judged(
    tree: Path, changes: dict[str, tuple[str, str]] | None = None, added: dict[str, str] | None = None
) -> list[tuple[str, str, int, bool]]:
    """(code, file, line, whether the message says "when") of each finding of `tree`, with
    `changes` (file: (old, new)) made to it and `added` files written into it."""
    for name, (old, new) in (changes or {}).items():
        text = (tree / name).read_text(encoding="utf-8")
        assert old in text
        (tree / name).write_text(text.replace(old, new), encoding="utf-8")
    for name, text in (added or {}).items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(text, encoding="utf-8")
    status, out, err = run(tree, "check", "--no-cache", "--output-format", "json", ".")
    assert status in (0, 1), err
    return sorted((f["code"], Path(f["filename"]).as_posix(), f["location"]["row"], "(when " in f["message"]) for f in json.loads(out))


# --- Azure ML online deployments ------------------------------------------------------------------


def test_the_deployment_turns_trace_replay_on(tmp_path: Path) -> None:
    assert findings(tmp_path, AZURE_ON) == [(*TRACE, False)]


def test_the_deployment_leaves_trace_replay_off(tmp_path: Path) -> None:
    assert findings(tmp_path, AZURE_OFF) == []


@pytest.mark.parametrize(
    ("changes", "added"),
    [
        # an integer value: the CLI sends its text
        ({"azureml/deployment.yml": ('REPLAY_TRACES: "0"', "REPLAY_TRACES: 0")}, {}),
        # the script run as the image's CMD, the deployment file beside the build folder
        ({"docker/Dockerfile": ('ENTRYPOINT ["bash", "/opt/start.sh"]', 'RUN chmod +x /opt/start.sh\nCMD ["/opt/start.sh"]')}, {}),
        # the same deployment written twice (a copy for another workspace)
        ({}, {"azureml/deployment-westus.yml": (HELD_OUT / AZURE_OFF / "azureml/deployment.yml").read_text(encoding="utf-8")}),
    ],
)
def test_other_spellings_of_a_deployment_that_leaves_it_off(tmp_path: Path, changes: dict, added: dict) -> None:
    assert findings(tmp_path, AZURE_OFF, changes, added) == []


def test_a_deployment_file_beside_the_build_folder(tmp_path: Path) -> None:
    moved = (HELD_OUT / AZURE_OFF / "azureml/deployment.yml").read_text(encoding="utf-8").replace("path: ../docker", "path: docker")
    elsewhere = {"azureml/deployment.yml": ("path: ../docker", "path: ../other")}  # builds another image
    assert findings(tmp_path, AZURE_OFF, elsewhere, {"deployment.yml": moved}) == []


@pytest.mark.parametrize(
    ("changes", "added"),
    [
        # the deployment does not set the variable: it comes from nowhere in the tree
        ({"azureml/deployment.yml": ('  REPLAY_TRACES: "0"\n', "")}, {}),
        # a value Azure ML fills in
        ({"azureml/deployment.yml": ('REPLAY_TRACES: "0"', "REPLAY_TRACES: ${{parent.inputs.traces}}")}, {}),
        # a boolean: the text the CLI sends is not known
        ({"azureml/deployment.yml": ('REPLAY_TRACES: "0"', "REPLAY_TRACES: false")}, {}),
        # another deployment of the same image turns it on: which one runs is not known
        ({}, {"azureml/green.yml": (HELD_OUT / AZURE_ON / "azureml/deployment.yml").read_text(encoding="utf-8")}),
        # the deployment builds another folder
        ({"azureml/deployment.yml": ("path: ../docker", "path: ../serving")}, {}),
        # the image runs another script
        ({"docker/Dockerfile": ('/opt/start.sh"]', '/opt/serve.sh"]')}, {}),
        # not an online deployment (a batch deployment's schema)
        ({"azureml/deployment.yml": ("managedOnlineDeployment", "batchDeployment")}, {}),
    ],
)
def test_a_variable_the_deployment_does_not_decide_leaves_the_test_open(tmp_path: Path, changes: dict, added: dict) -> None:
    assert findings(tmp_path, AZURE_OFF, changes, added) == [(*TRACE, True)]


# --- AWS CDK ECS containers -----------------------------------------------------------------------

CDK_CASE = "cdk_ecs_container_override_presence_penalty"
CDK_FILE = "infra/policy_stack.py"
CDK_IMAGE = 'image=ecs.ContainerImage.from_registry("vllm/vllm-openai:v0.34.0"),'


def cdk(tmp_path: Path, changes: dict[str, tuple[str, str]] | None = None, case: str = CDK_CASE) -> list[tuple[str, str, int]]:
    return [found[:3] for found in findings(tmp_path, case, changes)]


def test_the_cdk_case_an_override_in_a_module_constant(tmp_path: Path) -> None:
    assert cdk(tmp_path) == [("RPL302", CDK_FILE, 8)]


def test_the_cdk_clean_twin_neutral_penalties(tmp_path: Path) -> None:
    assert cdk(tmp_path, case="cdk_ecs_container_override_neutral_penalties_clean") == []


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        # no entry_point: the vllm/vllm-openai image's `vllm serve` runs with `command`
        ('            entry_point=["vllm", "serve"],\n', "", 8),
        # the image's repository as a keyword
        (CDK_IMAGE, 'image=ecs.ContainerImage.from_registry(name="vllm/vllm-openai:v0.34.0"),', 8),
        # `ecs.ContainerDefinition(scope, id, task_definition=...)` in place of `add_container`
        (
            'task.add_container(\n            "vllm",',
            'ecs.ContainerDefinition(\n            self,\n            "vllm",\n            task_definition=task,',
            8,
        ),
        # the override written in the list
        ("                GENERATION_DEFAULTS,\n", """                '{"presence_penalty": 0.5}',\n""", 36),
    ],
)
def test_other_spellings_of_a_cdk_container(tmp_path: Path, old: str, new: str, line: int) -> None:
    assert cdk(tmp_path, {CDK_FILE: (old, new)}) == [("RPL302", CDK_FILE, line)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an image built from the tree whose entry point is another program
        (
            CDK_IMAGE + '\n            entry_point=["vllm", "serve"],',
            'image=ecs.ContainerImage.from_asset("docker"),\n            entry_point=["python", "proxy.py"],',
        ),
        # the override from the deploying environment
        ("GENERATION_DEFAULTS = '{", "GENERATION_DEFAULTS = os.environ['GENERATION'] or '{"),
        # another image, whose entrypoint runs something else
        (CDK_IMAGE, 'image=ecs.ContainerImage.from_registry("nginx:1.27"),\n            entry_point=["nginx"],'),
        # another library's add_container with an image name
        (CDK_IMAGE, 'image="vllm/vllm-openai:v0.34.0",'),
    ],
)
def test_a_cdk_container_that_decides_nothing(tmp_path: Path, old: str, new: str) -> None:
    changes = {CDK_FILE: (old, new)}
    if "os.environ" in new:
        changes = {CDK_FILE: (old, new.replace("os.environ", "__import__('os').environ"))}
    assert cdk(tmp_path, changes) == []


# --- a session subclass and a class attribute from the checkpoint ----------------------------------

SUBCLASS_CASE = "httpx_client_subclass_top_k_from_checkpoint_config_vocab"
CLIENT_FILE = "rollout/client.py"
SUPER_INIT = 'super().__init__(base_url="http://127.0.0.1:8000", timeout=600)'


def subclass(tmp_path: Path, changes: dict[str, tuple[str, str]] | None = None, case: str = SUBCLASS_CASE) -> list[tuple[str, str, int]]:
    return [found[:3] for found in findings(tmp_path, case, changes)]


def test_the_subclass_case_top_k_at_the_class_attribute(tmp_path: Path) -> None:
    assert subclass(tmp_path) == [("RPL304", CLIENT_FILE, 15)]


def test_the_subclass_clean_twin_the_generation_config_top_k(tmp_path: Path) -> None:
    assert subclass(tmp_path, case="httpx_client_subclass_top_k_from_generation_config_clean") == []


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        # the base_url given by keyword after other options, with a trailing slash
        (SUPER_INIT, 'super().__init__(timeout=600, base_url="http://127.0.0.1:8000/")', 15),
        # the attribute read through the class's name
        ('"top_k": self.TOP_K', '"top_k": PolicyClient.TOP_K', 15),
        # a literal class attribute
        ('json.loads((CHECKPOINT / "config.json").read_text())["vocab_size"]', "151936", 15),
    ],
)
def test_other_spellings_of_a_session_subclass(tmp_path: Path, old: str, new: str, line: int) -> None:
    assert subclass(tmp_path, {CLIENT_FILE: (old, new)}) == [("RPL304", CLIENT_FILE, line)]


def test_a_subclass_of_the_imported_session_class(tmp_path: Path) -> None:
    text = (HELD_OUT / SUBCLASS_CASE / CLIENT_FILE).read_text(encoding="utf-8")
    text = text.replace("import httpx\n", "from httpx import Client\n").replace("(httpx.Client)", "(Client)")
    assert [found[:3] for found in findings(tmp_path, SUBCLASS_CASE, added={CLIENT_FILE: text})] == [("RPL304", CLIENT_FILE, 15)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the base_url a caller passes: not known here
        (SUPER_INIT, "super().__init__(base_url=base_url, timeout=600)"),
        # another port than the server's
        (SUPER_INIT, SUPER_INIT.replace("8000", "8001")),
        # not a session subclass: `self.post` is the class's own method
        ("class PolicyClient(httpx.Client):", "class PolicyClient:"),
        # two constructions with different addresses
        (SUPER_INIT, SUPER_INIT + '\n        super().__init__(base_url="http://127.0.0.1:9000")'),
    ],
)
def test_a_session_subclass_whose_address_is_not_the_server(tmp_path: Path, old: str, new: str) -> None:
    changes = {CLIENT_FILE: (old, new)}
    if "base_url=base_url" in new:
        changes = {
            CLIENT_FILE: ("def __init__(self) -> None:\n        " + old, "def __init__(self, base_url: str) -> None:\n        " + new)
        }
    assert subclass(tmp_path, changes) == []


# --- a request helper through functools.partial ---------------------------------------------------

PARTIAL_CASE = "aibrix_deployment_partial_request_helper_thinking_budget"
COLLECT_FILE = "rollout/collect.py"
PARTIAL = "short_thinking = functools.partial(generate, max_tokens=4096, thinking_token_budget=1024)"


def through_partial(
    tmp_path: Path, changes: dict[str, tuple[str, str]] | None = None, case: str = PARTIAL_CASE
) -> list[tuple[str, str, int]]:
    return [found[:3] for found in findings(tmp_path, case, changes)]


def test_the_partial_case_the_budget_at_the_partial_keyword(tmp_path: Path) -> None:
    assert through_partial(tmp_path) == [("RPL303", COLLECT_FILE, 11)]


def test_the_partial_clean_twin_an_unlimited_budget(tmp_path: Path) -> None:
    assert through_partial(tmp_path, case="aibrix_deployment_partial_thinking_budget_unlimited_clean") == []


@pytest.mark.parametrize(
    "partial",
    [
        # `from functools import partial`
        "from functools import partial\nshort_thinking = partial(generate, max_tokens=4096, thinking_token_budget=1024)",
        # the budget bound by the partial, max_tokens at each call
        "short_thinking = functools.partial(generate, thinking_token_budget=1024, max_tokens=4096)",
    ],
)
def test_other_spellings_of_a_partial(tmp_path: Path, partial: str) -> None:
    assert through_partial(tmp_path, {COLLECT_FILE: (PARTIAL, partial)}) == [("RPL303", COLLECT_FILE, partial.count("\n") + 11)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the call overrides the partial's budget with none
        (
            'short_thinking(client, json.loads(line)["token_ids"])',
            'short_thinking(client, json.loads(line)["token_ids"], thinking_token_budget=None)',
        ),
        # the budget from the command line
        ("thinking_token_budget=1024)", "thinking_token_budget=int(sys.argv[3]))"),
        # a partial of another function
        ("functools.partial(generate,", "functools.partial(print,"),
    ],
)
def test_a_partial_that_sends_no_known_budget(tmp_path: Path, old: str, new: str) -> None:
    assert through_partial(tmp_path, {COLLECT_FILE: (old, new)}) == []


# --- Pulumi Docker containers ---------------------------------------------------------------------

PULUMI_CASE = "pulumi_docker_server_dspy_lm_api_base_from_ini"
PULUMI_FILE = "infra/__main__.py"
PUBLISHED = "ports=[docker.ContainerPortArgs(internal=8000, external=8000)],"
CHAT = ("RPL301", "agent/lm.py", 14)


def pulumi(tmp_path: Path, changes: dict[str, tuple[str, str]] | None = None, case: str = PULUMI_CASE) -> list[tuple[str, str, int]]:
    return [found[:3] for found in findings(tmp_path, case, changes)]


def test_the_pulumi_case_a_dspy_chat_client_of_the_container(tmp_path: Path) -> None:
    assert pulumi(tmp_path) == [CHAT]


def test_the_pulumi_clean_twin_the_tree_also_reads_generate(tmp_path: Path) -> None:
    assert pulumi(tmp_path, case="pulumi_docker_server_dspy_lm_tree_also_reads_generate_clean") == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the image by name, the vllm/vllm-openai image's own `vllm serve` with `command`
        ('    entrypoints=["vllm"],\n    command=[\n        "serve",\n', "    command=[\n"),
        ("image=image.image_id,", 'image="vllm/vllm-openai:v0.34.0",'),
        # the ports as dicts, and the host network
        (PUBLISHED, 'ports=[{"internal": 8000, "external": 8000}],'),
        (PUBLISHED, 'network_mode="host",'),
    ],
)
def test_other_spellings_of_a_pulumi_container(tmp_path: Path, old: str, new: str) -> None:
    assert pulumi(tmp_path, {PULUMI_FILE: (old, new)}) == [CHAT]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # published on another port of the host, or not at all: localhost does not reach it
        (PUBLISHED, "ports=[docker.ContainerPortArgs(internal=8000, external=9000)],"),
        (PUBLISHED, "ports=[docker.ContainerPortArgs(internal=8000)],"),
        (PUBLISHED, ""),
        # without the mask
        ('        "--return-sampling-mask",\n', ""),
    ],
)
def test_a_pulumi_container_localhost_clients_do_not_reach(tmp_path: Path, old: str, new: str) -> None:
    assert pulumi(tmp_path, {PULUMI_FILE: (old, new)}) == []


def test_a_chat_client_of_a_container_whose_api_base_comes_from_outside(tmp_path: Path) -> None:
    changes = {"agent/lm.py": ('api_base=section["api_base"]', 'api_base=__import__("os").environ["POLICY_API_BASE"]')}
    assert pulumi(tmp_path, changes) == []


# --- a settings file named by an environment default ----------------------------------------------

FLY_CASE = "flyio_start_script_generate_repetition_penalty_from_toml"
WORKER_FILE = "rollout/worker.py"
OPENED = 'open(os.environ.get("ROLLOUT_SETTINGS", "config/rollout.toml"), "rb")'
PENALTY = ("RPL302", "config/rollout.toml", 9)


def settings_file(tmp_path: Path, changes: dict[str, tuple[str, str]] | None = None, case: str = FLY_CASE) -> list[tuple[str, str, int]]:
    return [found[:3] for found in findings(tmp_path, case, changes)]


def test_the_fly_case_the_penalty_at_its_toml_key(tmp_path: Path) -> None:
    assert settings_file(tmp_path) == [PENALTY]


def test_the_fly_clean_twin_a_neutral_penalty(tmp_path: Path) -> None:
    assert settings_file(tmp_path, case="flyio_start_script_generate_repetition_neutral_toml_clean") == []


@pytest.mark.parametrize(
    "opened",
    [
        'open(os.getenv("ROLLOUT_SETTINGS", "config/rollout.toml"), "rb")',
        'open(os.environ.get("ROLLOUT_SETTINGS", default="config/rollout.toml"), "rb")',
        'Path(os.environ.get("ROLLOUT_SETTINGS", "config/rollout.toml")).open("rb")',
    ],
)
def test_other_spellings_of_an_environment_default_path(tmp_path: Path, opened: str) -> None:
    assert settings_file(tmp_path, {WORKER_FILE: (OPENED, opened)}) == [PENALTY]


@pytest.mark.parametrize(
    "opened",
    [
        # no default: the path comes from outside
        'open(os.environ["ROLLOUT_SETTINGS"], "rb")',
        # the default is a file the tree does not hold
        'open(os.environ.get("ROLLOUT_SETTINGS", "config/missing.toml"), "rb")',
    ],
)
def test_a_path_from_outside_reads_nothing(tmp_path: Path, opened: str) -> None:
    assert settings_file(tmp_path, {WORKER_FILE: (OPENED, opened)}) == []


def test_a_variable_the_module_writes_leaves_the_path_unknown(tmp_path: Path) -> None:
    written = 'os.environ.setdefault("ROLLOUT_SETTINGS", "config/other.toml")\nwith ' + OPENED
    assert settings_file(tmp_path, {WORKER_FILE: ("with " + OPENED, written)}) == []
