"""Round 12's launches (tests/test_rpl3_heldout12.py's Argo and Vertex AI cases).

Argo Workflows: a `script:` template's `source` run by a shell (`command: [bash]`) is the script
the template's container runs, in its image and with its `env`; the HTTP client it runs after
the server (`python -m agent.run`) is tied to it by port. A template a Workflow never names (its
entrypoint, steps, DAG tasks, `onExit`) is not run; a WorkflowTemplate's may be run from other
workflows. A `source` another interpreter runs, or one with Argo's `{{...}}` placeholders, is
not read.

Vertex AI: `aiplatform.Model.upload(serving_container_command=..., serving_container_args=...)`
is the command line the serving container runs, read as the program builds it (a list grown
under a settings constant of another module); the container's environment is
`serving_container_environment_variables`, and a word or test resting on the deploying
program's environment is unknown."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_yaml_round11_dstack import checked, messages

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout12"
REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"


def held_out(
    tmp_path: Path, case: str, changes: dict[str, tuple[str, str]] | None = None, corpus: Path = HELD_OUT
) -> list[tuple[str, str, int]]:
    """The findings of a held-out case's tree (of `corpus`), with `changes` (file: (old, new)) made to it."""
    shutil.copytree(corpus / case, tmp_path / "tree")
    for name, (old, new) in (changes or {}).items():
        path = tmp_path / "tree" / name
        assert old in path.read_text(encoding="utf-8")
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return checked(tmp_path / "tree", {})


# --- Argo Workflows -------------------------------------------------------------------------

ARGO_CASE = "argo_script_template_thinking_budget_dataclass_default"
BUDGET_CLIENT = """import httpx

body = {"token_ids": [1, 2], "sampling_params": {"max_tokens": 64, "top_k": 20, "thinking_token_budget": 512}}
httpx.post("http://127.0.0.1:8000/inference/v1/generate", json=body)
"""


def workflow(kind: str, script: str, entry: str = "serve", command: str = "[bash]", env: str = "") -> str:
    spec = "spec:\n  workflowSpec:\n" if kind == "CronWorkflow" else "spec:\n"
    indent = "    " if kind == "CronWorkflow" else "  "
    body = f"entrypoint: {entry}\n" if entry else ""
    body += "templates:\n  - name: serve\n    script:\n      image: vllm/vllm-openai:v0.34.0\n"
    body += f"      command: {command}\n{env}      source: |\n"
    body += "".join(f"        {line}\n" for line in script.splitlines())
    return f"apiVersion: argoproj.io/v1alpha1\nkind: {kind}\nmetadata:\n  name: replay\n{spec}" + "".join(
        f"{indent}{line}\n" for line in body.splitlines()
    )


TRACE = f"vllm serve Qwen/Qwen3-0.6B {REPLAY} --enable-trace-replay"


def test_the_argo_case_a_dataclass_default_sent_through_asdict(tmp_path: Path) -> None:
    assert held_out(tmp_path, ARGO_CASE) == [("RPL303", "agent/sampling.py", 10)]


def test_the_argo_clean_twin_an_unlimited_budget(tmp_path: Path) -> None:
    change = {"agent/sampling.py": ("thinking_token_budget: int = 2048", "thinking_token_budget: int = -1")}
    assert held_out(tmp_path, ARGO_CASE, change) == []


def test_a_literal_body_of_the_client_the_script_runs(tmp_path: Path) -> None:
    script = f"vllm serve Qwen/Qwen3-0.6B --reasoning-parser qwen3 {REPLAY} &\npython client.py\n"
    files = {"wf.yaml": workflow("Workflow", script), "client.py": BUDGET_CLIENT}
    assert checked(tmp_path, files) == [("RPL303", "client.py", 3)]


@pytest.mark.parametrize(
    ("kind", "entry", "command", "line"),
    [
        pytest.param("Workflow", "serve", "[sh]", 13, id="a Workflow, sh"),
        pytest.param("WorkflowTemplate", "", "[bash, -e]", 12, id="a WorkflowTemplate without entrypoint, bash -e"),
        pytest.param("ClusterWorkflowTemplate", "", "[/bin/bash]", 12, id="a ClusterWorkflowTemplate, /bin/bash"),
        pytest.param("CronWorkflow", "serve", "[bash]", 14, id="a CronWorkflow's workflowSpec"),
        pytest.param("WorkflowTemplate", "other", "[bash]", 13, id="a WorkflowTemplate's template no entrypoint names"),
    ],
)
def test_trace_replay_in_a_script_template(tmp_path: Path, kind: str, entry: str, command: str, line: int) -> None:
    assert checked(tmp_path, {"wf.yaml": workflow(kind, TRACE, entry, command)}) == [("RPL305", "wf.yaml", line)]


def test_a_variable_of_the_template_env_reaches_the_script(tmp_path: Path) -> None:
    env = "      env:\n        - name: TRACE\n          value: --enable-trace-replay\n"
    text = workflow("Workflow", f"vllm serve Qwen/Qwen3-0.6B {REPLAY} $TRACE", env=env)
    assert checked(tmp_path, {"wf.yaml": text}) == [("RPL305", "wf.yaml", 14)]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (workflow("Workflow", TRACE, entry="main"), "a Workflow's template nothing names is never run"),
        (workflow("CronWorkflow", TRACE, entry="main"), "nor a CronWorkflow's"),
        (workflow("Workflow", TRACE, command="[python]"), "a source Python runs"),
        (workflow("Workflow", TRACE, command="[bash, -c]"), "bash -c runs its next word, not the script"),
        (workflow("Workflow", TRACE + " {{inputs.parameters.extra}}"), "a placeholder Argo fills when the workflow runs"),
        (
            workflow(
                "Workflow",
                f"vllm serve Qwen/Qwen3-0.6B {REPLAY} $EXTRA",
                env="      env:\n        - name: EXTRA\n          valueFrom:\n            secretKeyRef: {name: s, key: k}\n",
            ),
            "a variable from outside the tree",
        ),
        (workflow("Workflow", TRACE).replace("argoproj.io/v1alpha1", "example.com/v1"), "not an Argo document"),
    ],
)
def test_scripts_not_read_or_values_not_known(tmp_path: Path, text: str, why: str) -> None:
    assert checked(tmp_path, {"wf.yaml": text}) == [], why


def test_a_container_template_nothing_names_is_not_run(tmp_path: Path) -> None:
    template = (
        "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata:\n  generateName: r-\nspec:\n  entrypoint: main\n  templates:\n"
        "    - name: main\n      steps:\n        - - name: s\n            template: eval\n"
        "    - name: eval\n      container:\n        image: python:3.12\n        command: [python, eval.py]\n"
        "    - name: NAME\n      container:\n        image: vllm/vllm-openai:v0.34.0\n"
        "        args: [Qwen/Qwen3-0.6B, --return-sampling-mask, --logprobs-mode, processed_logprobs, --enable-scale-out, --enable-trace-replay]\n"
    )
    assert checked(tmp_path, {"wf.yaml": template.replace("NAME", "serve")}) == []
    run = template.replace("NAME", "serve").replace("template: eval", "template: serve")
    assert checked(tmp_path, {"wf.yaml": run}) == [("RPL305", "wf.yaml", 19)]


# --- Vertex AI ------------------------------------------------------------------------------

VERTEX_CASE = "vertex_upload_container_args_trace_replay_from_settings"
UPLOAD = """from google.cloud.aiplatform import Model

ARGS = ["--model=Qwen/Qwen3-0.6B", "--return-sampling-mask", "--logprobs-mode=processed_logprobs", "--enable-scale-out"]


def deploy():
    args = list(ARGS)
    if TEST:
        args.append("--enable-trace-replay")
    return Model.upload(
        display_name="replay",
        serving_container_image_uri=IMAGE,COMMAND
        serving_container_args=args,
    )
"""


def upload(test: str = "True", image: str = '"vllm/vllm-openai:v0.34.0"', command: str = "") -> str:
    return "import os\n" + UPLOAD.replace("TEST", test).replace("IMAGE", image).replace("COMMAND", command)


def test_the_vertex_case_trace_replay_appended_under_a_settings_constant(tmp_path: Path) -> None:
    assert held_out(tmp_path, VERTEX_CASE) == [("RPL305", "deploy/vertex_deploy.py", 28)]


def test_the_vertex_clean_twin_the_constant_false(tmp_path: Path) -> None:
    change = {"deploy/settings.py": ("ENABLE_TRACE_REPLAY = True", "ENABLE_TRACE_REPLAY = False")}
    assert held_out(tmp_path, VERTEX_CASE, change) == []


@pytest.mark.parametrize(
    ("image", "command"),
    [
        pytest.param('"vllm/vllm-openai:v0.34.0"', "", id="the vLLM image's entrypoint"),
        pytest.param('"us-docker.pkg.dev/p/r/vllm-serve:1"', '\n        serving_container_command=["vllm", "serve"],', id="vllm serve"),
        pytest.param(
            '"us-docker.pkg.dev/p/r/vllm-serve:1"',
            '\n        serving_container_command=["python3", "-m", "vllm.entrypoints.openai.api_server"],',
            id="python3 -m the api server",
        ),
        pytest.param('"us-docker.pkg.dev/p/r/own:1"', "", id="another image's entrypoint, args that name the switch"),
    ],
)
def test_a_model_upload_serving_container(tmp_path: Path, image: str, command: str) -> None:
    assert checked(tmp_path, {"deploy.py": upload(image=image, command=command)}) == [("RPL305", "deploy.py", 10)]


@pytest.mark.parametrize(
    ("imported", "upload_call"),
    [
        pytest.param("from google.cloud import aiplatform", "aiplatform.Model.upload(", id="aiplatform.Model"),
        pytest.param("import google.cloud.aiplatform as aip", "aip.Model.upload(", id="an alias of the package"),
        pytest.param("from google.cloud.aiplatform import models", "models.Model.upload(", id="aiplatform.models.Model"),
    ],
)
def test_import_spellings_of_the_upload(tmp_path: Path, imported: str, upload_call: str) -> None:
    text = upload().replace("from google.cloud.aiplatform import Model", imported).replace("Model.upload(", upload_call)
    assert checked(tmp_path, {"deploy.py": text}) == [("RPL305", "deploy.py", 10)]


def test_the_image_tag_is_the_release(tmp_path: Path) -> None:
    text = upload(image='"vllm/vllm-openai:v0.33.0"')
    assert checked(tmp_path, {"deploy.py": text}) == [("RPL305", "deploy.py", 10)]
    assert "vLLM 0.33.0" in messages(tmp_path, "deploy.py")[0]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (upload(test="False"), "the branch not taken"),
        (upload(test='os.environ.get("TRACE") == "1"'), "a test of the deploying program's environment"),
        (upload(image='"us-docker.pkg.dev/p/r/own:1"').replace('"--return-sampling-mask", ', ""), "another image, no switch"),
        (upload().replace("Model.upload(", "Model.list(").replace("display_name", "filter"), "not an upload"),
        (upload().replace("from google.cloud.aiplatform import Model", "from mlflow import Model"), "another library's Model"),
    ],
)
def test_uploads_that_start_no_replay_finding(tmp_path: Path, text: str, why: str) -> None:
    assert checked(tmp_path, {"deploy.py": text}) == [], why


def test_args_from_outside_the_tree(tmp_path: Path) -> None:
    text = (
        "import json, os\nfrom google.cloud import aiplatform\n\n"
        "aiplatform.Model.upload(\n    serving_container_image_uri='vllm/vllm-openai:v0.34.0',\n"
        "    serving_container_args=json.loads(os.environ['VLLM_ARGS']) + ['--return-sampling-mask'],\n)\n"
    )
    assert checked(tmp_path, {"deploy.py": text}) == []
