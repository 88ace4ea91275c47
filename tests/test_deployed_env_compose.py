"""A shell script a docker-compose service's image runs, judged with the service's `environment`
(the compose twin of tests/data/rpl3_heldout14/azureml_online_deployment_env_*).

The service builds the script's folder (`build: ./docker`), whose `Dockerfile` copies the script
in and names it in its `ENTRYPOINT` or `CMD`; the script tests `${REPLAY_TRACES:-0}` before
appending `--enable-trace-replay`. A value the service writes decides the test ("0": silent,
"1": reported at the flag's line); a variable it does not set, an `env_file`, services that
disagree or a value from the shell leave it open (the finding says "when")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from replaylint.readers.deployed_env import deployed_env
from replaylint.source import ExtractContext, names_in
from tests.test_rpl3_round14_launches import judged

DOCKER = Path(__file__).parent / "data" / "rpl3_heldout14" / "azureml_online_deployment_env_trace_replay_off_clean" / "docker"
TRACE = ("RPL305", "docker/start.sh", 7)
ENTRYPOINT = 'ENTRYPOINT ["bash", "/opt/start.sh"]'
AS_CMD = 'RUN chmod +x /opt/start.sh\nCMD ["/opt/start.sh"]'


def compose(traces: str = '"0"', build: str = "./docker", extra: str = "") -> str:
    return f"""services:
  policy:
    build: {build}
    ports:
      - "8000:8000"
    environment:
      MODEL_ID: Qwen/Qwen3-1.7B
      REPLAY_TRACES: {traces}
{extra}"""


def findings(tmp_path: Path, files: dict[str, str], dockerfile: tuple[str, str] | None = None) -> list[tuple[str, str, int, bool]]:
    """`judged` of the script's folder with `files` written beside it (and its Dockerfile's
    `dockerfile` old text replaced by the new)."""
    tree = tmp_path / "tree"
    shutil.copytree(DOCKER, tree / "docker")
    return judged(tree, {"docker/Dockerfile": dockerfile} if dockerfile else None, files)


def test_the_service_turns_trace_replay_on(tmp_path: Path) -> None:
    assert findings(tmp_path, {"docker-compose.yml": compose('"1"')}) == [(*TRACE, False)]


def test_the_service_leaves_trace_replay_off(tmp_path: Path) -> None:
    assert findings(tmp_path, {"docker-compose.yml": compose('"0"')}) == []


LIST_FORM = """services:
  policy:
    build:
      context: ./docker
      dockerfile: Dockerfile
    environment:
      - MODEL_ID=Qwen/Qwen3-1.7B
      - REPLAY_TRACES={traces}
"""


@pytest.mark.parametrize(
    ("files", "dockerfile"),
    [
        # the list form, the build's long form
        ({"docker-compose.yml": LIST_FORM.format(traces="0")}, None),
        ({"compose.yaml": LIST_FORM.format(traces="0").replace("- REPLAY", '- "REPLAY').replace("=0", '=0"')}, None),
        # an integer: compose sends its text
        ({"compose.yml": compose("0")}, None),
        # the script as the image's CMD
        ({"docker-compose.yaml": compose('"0"')}, (ENTRYPOINT, AS_CMD)),
        # another Dockerfile of the folder that runs the script too
        (
            {
                "docker-compose.yml": compose('"0"', "\n      context: docker\n      dockerfile: Dockerfile.serve"),
                "docker/Dockerfile.serve": (DOCKER / "Dockerfile").read_text(encoding="utf-8"),
            },
            None,
        ),
        # a second service runs the image the first one tags, with the same environment
        (
            {
                "docker-compose.yml": compose('"0"', "./docker\n    image: policy:dev")
                + '  shadow:\n    image: policy:dev\n    environment:\n      MODEL_ID: Qwen/Qwen3-1.7B\n      REPLAY_TRACES: "0"\n'
            },
            None,
        ),
        # a compose file in a folder beside the script's, building it from there
        ({"deploy/compose.gpu.yaml": compose('"0"', "../docker")}, None),
        # `$$` is a literal dollar: the value is known
        ({"docker-compose.yml": compose('"0"').replace("Qwen/Qwen3-1.7B", "Qwen/$$HOME")}, None),
    ],
)
def test_other_spellings_of_a_service_that_leaves_it_off(tmp_path: Path, files: dict[str, str], dockerfile: tuple[str, str] | None) -> None:
    assert findings(tmp_path, files, dockerfile) == []


def test_the_list_form_turns_it_on(tmp_path: Path) -> None:
    assert findings(tmp_path, {"docker-compose.yml": LIST_FORM.format(traces="1")}) == [(*TRACE, False)]


RUNNER_ON = '  other:\n    build: ./docker\n    environment:\n      MODEL_ID: Qwen/Qwen3-1.7B\n      REPLAY_TRACES: "1"\n'


@pytest.mark.parametrize(
    ("files", "dockerfile"),
    [
        # the service does not set the variable
        ({"docker-compose.yml": compose('"0"').replace('      REPLAY_TRACES: "0"\n', "")}, None),
        # the value comes from the shell running compose, or from `.env`
        ({"docker-compose.yml": compose("${REPLAY_TRACES:-0}")}, None),
        ({"docker-compose.yml": compose("")}, None),
        ({"docker-compose.yml": LIST_FORM.format(traces="0").replace("- REPLAY_TRACES=0", "- REPLAY_TRACES")}, None),
        # a boolean: its text is not known
        ({"docker-compose.yml": compose("false")}, None),
        # an env_file: what it sets is not read here
        ({"docker-compose.yml": compose('"0"', extra="    env_file: .env\n"), ".env": "REPLAY_TRACES=0\n"}, None),
        # two services that run the image and disagree
        ({"docker-compose.yml": compose('"0"') + RUNNER_ON}, None),
        # the compose file and an Azure ML deployment disagree
        (
            {
                "docker-compose.yml": compose('"0"'),
                "azureml/deployment.yml": (
                    DOCKER.parent.parent / "azureml_online_deployment_env_toggles_trace_replay/azureml/deployment.yml"
                ).read_text(encoding="utf-8"),
            },
            None,
        ),
        # a service running the image with its own arguments (the script is the ENTRYPOINT) disagrees
        ({"docker-compose.yml": compose('"0"') + RUNNER_ON + '    command: ["--verbose"]\n'}, None),
        # another compose file of the parent (run with `-f`) turns it on
        ({"docker-compose.yml": compose('"0"'), "docker-compose.prod.yml": compose('"1"').replace("policy", "prod")}, None),
        # an override file `docker compose` merges in
        ({"docker-compose.yml": compose('"0"'), "docker-compose.override.yml": "services:\n  policy:\n    environment: {}\n"}, None),
        # a service that extends another
        ({"docker-compose.yml": compose('"0"') + "  copy:\n    extends: policy\n"}, None),
        # the service builds another folder, or another stage
        ({"docker-compose.yml": compose('"0"', "./serving")}, None),
        ({"docker-compose.yml": compose('"0"', "\n      context: ./docker\n      target: serve")}, None),
        # the image runs another script
        ({"docker-compose.yml": compose('"0"')}, ('/opt/start.sh"]', '/opt/serve.sh"]')),
        # a compose file in the script's own folder is not one of the parent's
        ({"docker/compose.yaml": compose('"0"', ".")}, None),
    ],
)
def test_a_variable_the_services_do_not_decide_leaves_the_test_open(
    tmp_path: Path, files: dict[str, str], dockerfile: tuple[str, str] | None
) -> None:
    assert findings(tmp_path, files, dockerfile) == [(*TRACE, True)]


@pytest.mark.parametrize(
    ("other", "dockerfile"),
    [
        # its own entrypoint: the image's does not run
        (RUNNER_ON + '    entrypoint: ["python", "-m", "health"]\n', None),
        # its own command, where the script is the image's CMD
        (RUNNER_ON + '    command: ["python", "-m", "health"]\n', (ENTRYPOINT, AS_CMD)),
        # it builds the folder with a Dockerfile that runs another program
        (RUNNER_ON.replace("build: ./docker", "build:\n      context: ./docker\n      dockerfile: Dockerfile.health"), None),
    ],
)
def test_a_service_that_does_not_run_the_script_does_not_decide(tmp_path: Path, other: str, dockerfile: tuple[str, str] | None) -> None:
    files = {"docker-compose.yml": compose('"0"') + other, "docker/Dockerfile.health": 'FROM python:3.12\nCMD ["python", "-m", "health"]\n'}
    assert findings(tmp_path, files, dockerfile) == []


def test_the_compose_file_and_a_deployment_that_agree_decide(tmp_path: Path) -> None:
    deployment = (DOCKER.parent / "azureml/deployment.yml").read_text(encoding="utf-8")
    assert findings(tmp_path, {"docker-compose.yml": compose('"0"'), "azureml/deployment.yml": deployment}) == []


def test_the_scripts_folder_is_never_listed(tmp_path: Path) -> None:
    """A script's result must not rest on the names beside it (the cache would parse it again
    each time one is written there)."""
    shutil.copytree(DOCKER, tmp_path / "docker")
    (tmp_path / "docker-compose.yml").write_text(compose('"1"'), encoding="utf-8")
    (tmp_path / "azureml").mkdir()
    listed: list[str] = []

    def list_folder(folder: str) -> list[str]:
        listed.append(Path(folder).resolve().as_posix())
        return names_in(folder)

    def read_text(path: str) -> str | None:
        return Path(path).read_text(encoding="utf-8") if Path(path).is_file() else None

    context = ExtractContext(read_text=read_text, list_folder=list_folder, root=str(tmp_path))
    env = deployed_env(str(tmp_path / "docker" / "start.sh"), context)
    assert env is not None and env["REPLAY_TRACES"].value == "1"
    assert (tmp_path / "docker").resolve().as_posix() not in listed
    assert (tmp_path / "azureml").resolve().as_posix() in listed
