"""What held-out round 24 made the value flow follow for an OpenAI client made without `base_url`
(tests/data/python_flow/h24_selfcodealign_ossinstruct_vllm_server_completions).

openai-python takes such a client's address from `OPENAI_BASE_URL` (`openai/lib/_client_auth.py`:
`elif base_url is None: base_url = os.environ.get("OPENAI_BASE_URL")`, else the OpenAI service).
The client is tied to the replay server at that address where the tree writes the variable around
the program: a script near the module that exports it (or gives it as a `NAME=V` prefix) and runs
the module or one that imports it, or the module's own `os.environ[...] =` before the client is
made (`setdefault`: resting on the variable being unset). A variable the script does not export, a
run that leaves it to the caller, runs that disagree, or a `base_url=` written, tie nothing to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SERVE = "vllm serve m --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out &\nsleep 60\n"
PLAIN_SERVE = "vllm serve m --port 9000 &\nsleep 60\n"
CLIENT = (
    "import openai\n"
    "\n"
    "\n"
    "class Client:\n"
    "    def __init__(self):\n"
    "        self.client = openai.{made}\n"
    "\n"
    "    async def complete(self, **kwargs):\n"
    "        return await self.client.completions.create(**kwargs)\n"  # line 9
)
MAIN = (
    "import asyncio\n"
    "\n"
    "from gen.client import Client\n"
    "\n"
    "\n"
    "async def main():\n"
    "    await Client().complete(model='m', prompt='p', temperature=0.7)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    asyncio.run(main())\n"
)


def _tree(script: str, made: str = "AsyncClient()", name: str = "run.sh") -> dict[str, str]:
    return {
        name: "#!/bin/bash\n" + script,
        "src/gen/__init__.py": "",
        "src/gen/client.py": CLIENT.format(made=made),
        "src/gen/main.py": MAIN,
    }


# the script exports the address and runs the program that imports the client's module


@pytest.mark.parametrize(
    "run",
    [
        'export OPENAI_API_KEY=EMPTY\nexport OPENAI_BASE_URL="http://localhost:8000/v1/"\nPYTHONPATH=src python -m gen.main\n',
        "OPENAI_BASE_URL=http://127.0.0.1:8000/v1 PYTHONPATH=src python3 -m gen.main\n",
        "PORT=8000\nOPENAI_BASE_URL=http://localhost:$PORT/v1\nexport OPENAI_BASE_URL\ncd src && nohup python -u -m gen.main > log 2>&1\n",
        "export OPENAI_BASE_URL=http://localhost:8000/v1\nenv PYTHONPATH=src uv run python src/gen/main.py\n",
    ],
)
@pytest.mark.parametrize("made", ["AsyncClient()", "AsyncOpenAI(api_key='EMPTY')", "AsyncOpenAI(max_retries=3)"])
def test_the_address_the_script_exports_ties_the_client(tmp_path: Path, run: str, made: str) -> None:
    assert check(tmp_path, _tree(SERVE + run, made)) == [("client.py", 9, "RPL301")]


def test_a_script_in_a_folder_below_runs_the_client_module_itself(tmp_path: Path) -> None:
    files = {
        "scripts/serve_and_generate.sh": "#!/bin/bash\n" + SERVE + "export OPENAI_BASE_URL=http://localhost:8000/v1\npython gen.py\n",
        "scripts/gen.py": "from openai import OpenAI\n\nclient = OpenAI()\nclient.completions.create(model='m', prompt='p')\n",
    }
    assert check(tmp_path, files) == [("gen.py", 4, "RPL301")]


@pytest.mark.parametrize(
    "run",
    [
        "PYTHONPATH=src python -m gen.main\n",  # the caller's environment
        "OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m gen.main\n",  # not exported
        "export OPENAI_BASE_URL=http://localhost:8001/v1\nPYTHONPATH=src python -m gen.main\n",  # another port
        "export OPENAI_BASE_URL=http://localhost:$PORT/v1\nPYTHONPATH=src python -m gen.main\n",  # a port from the run
        "source ./env.sh\nexport OPENAI_BASE_URL\nPYTHONPATH=src python -m gen.main\n",  # a file not read
        'if [ "$1" = local ]; then\n  export OPENAI_BASE_URL=http://localhost:8000/v1\nfi\nPYTHONPATH=src python -m gen.main\n',
        "export OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m other.main\n",  # another program
    ],
)
def test_an_address_the_tree_does_not_decide_ties_nothing(tmp_path: Path, run: str) -> None:
    assert check(tmp_path, _tree(SERVE + run)) == []


def test_a_program_that_loads_a_dotenv_file_ties_nothing(tmp_path: Path) -> None:
    """`load_dotenv(override=True)` replaces what the script exports with the `.env` file's."""
    files = _tree(SERVE + "export OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m gen.main\n")
    files["src/gen/main.py"] = "from dotenv import load_dotenv\n\nload_dotenv(override=True)\n" + MAIN
    files[".env"] = "OPENAI_BASE_URL=https://api.example.com/v1\n"
    assert check(tmp_path, files) == []


def test_a_client_module_that_loads_a_dotenv_file_itself_ties_nothing(tmp_path: Path) -> None:
    """The `.env` file it loads is not in the tree (it is ignored by git, written at deployment)."""
    files = _tree(SERVE + "export OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m gen.main\n")
    files["src/gen/client.py"] = "from dotenv import load_dotenv\n\nload_dotenv(override=True)\n" + files["src/gen/client.py"]
    assert check(tmp_path, files) == []


@pytest.mark.parametrize("run", ["python main.py\n", "python -m main\n", "python -m client\n"])
def test_a_script_that_runs_a_program_of_the_same_name_elsewhere_ties_nothing(tmp_path: Path, run: str) -> None:
    """`tools/run.sh` runs its own folder's `main.py` (or a top-level module `main`), not `src/gen/main.py`."""
    files = {**_tree(SERVE), "tools/run.sh": "#!/bin/bash\nexport OPENAI_BASE_URL=http://localhost:8000/v1\n" + run}
    assert check(tmp_path, files) == []


def test_two_scripts_that_disagree_tie_nothing(tmp_path: Path) -> None:
    files = _tree(SERVE + "export OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m gen.main\n")
    files["remote.sh"] = "#!/bin/bash\nexport OPENAI_BASE_URL=https://api.example.com/v1\nPYTHONPATH=src python -m gen.main\n"
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    "made", ["AsyncOpenAI(base_url='http://localhost:9000/v1')", "AsyncOpenAI(base_url=BASE)", "AsyncOpenAI(**OPTIONS)"]
)
def test_a_base_url_written_wins_over_the_environment(tmp_path: Path, made: str) -> None:
    files = _tree(SERVE + PLAIN_SERVE + "export OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m gen.main\n", made)
    head = "import os\nBASE = os.environ['SERVER_URL']\nOPTIONS = {'base_url': 'http://localhost:9000/v1'}\n"
    files["src/gen/client.py"] = files["src/gen/client.py"].replace("import openai\n", "import openai\n" + head, 1)
    assert check(tmp_path, files) == []


# the module writes the variable before the client is made

SERVER_ONLY = {"serve.sh": "#!/bin/bash\n" + SERVE}


@pytest.mark.parametrize(
    "write",
    [
        "os.environ['OPENAI_BASE_URL'] = 'http://localhost:8000/v1'\n",
        "os.environ.setdefault('OPENAI_BASE_URL', 'http://localhost:8000/v1')\n",
    ],
)
def test_the_module_own_write_before_the_client(tmp_path: Path, write: str) -> None:
    script = "import os\n\nfrom openai import OpenAI\n\n" + write + "client = OpenAI()\nclient.completions.create(model='m', prompt='p')\n"
    assert check(tmp_path, {**SERVER_ONLY, "gen.py": script}) == [("gen.py", 7, "RPL301")]


def test_the_write_in_the_function_that_makes_the_client(tmp_path: Path) -> None:
    script = (
        "import os\n"
        "\n"
        "import openai\n"
        "\n"
        "\n"
        "def main():\n"
        "    os.environ['OPENAI_BASE_URL'] = 'http://localhost:8000/v1'\n"
        "    client = openai.OpenAI()\n"
        "    client.chat.completions.create(model='m', messages=[])\n"  # line 9
        "\n"
        "\n"
        "main()\n"
    )
    assert check(tmp_path, {**SERVER_ONLY, "gen.py": script}) == [("gen.py", 9, "RPL301")]


@pytest.mark.parametrize(
    "write",
    [
        "",  # nothing sets it
        "os.environ['OPENAI_BASE_URL'] = 'http://localhost:8001/v1'\n",  # another port
        "os.environ['OPENAI_BASE_URL'] = sys.argv[1]\n",  # from the run
        "if len(sys.argv) > 1:\n    os.environ['OPENAI_BASE_URL'] = 'http://localhost:8000/v1'\n",  # a branch
    ],
)
def test_a_module_write_not_decided_ties_nothing(tmp_path: Path, write: str) -> None:
    script = (
        "import os\nimport sys\n\nfrom openai import OpenAI\n\n"
        + write
        + "client = OpenAI()\nclient.completions.create(model='m', prompt='p')\n"
    )
    assert check(tmp_path, {**SERVER_ONLY, "gen.py": script}) == []


def test_a_write_after_the_client_is_made_ties_nothing(tmp_path: Path) -> None:
    script = (
        "import os\n\nfrom openai import OpenAI\n\n"
        "client = OpenAI()\n"
        "os.environ['OPENAI_BASE_URL'] = 'http://localhost:8000/v1'\n"
        "client.completions.create(model='m', prompt='p')\n"
    )
    assert check(tmp_path, {**SERVER_ONLY, "gen.py": script}) == []


def test_the_script_export_wins_over_a_setdefault(tmp_path: Path) -> None:
    script = (
        "import os\n\nfrom openai import OpenAI\n\n"
        "os.environ.setdefault('OPENAI_BASE_URL', 'http://localhost:8000/v1')\n"
        "client = OpenAI()\n"
        "client.completions.create(model='m', prompt='p')\n"
    )
    run = "#!/bin/bash\n" + SERVE + "export OPENAI_BASE_URL=http://localhost:8001/v1\npython gen.py\n"
    assert check(tmp_path, {"run.sh": run, "gen.py": script}) == []


# a compose service runs the program with the variable in its `environment`

COMPOSE = (
    "services:\n"
    "  vllm:\n"
    "    image: vllm/vllm-openai:v0.34.0\n"
    "    command: [m, --port, '8000', --return-sampling-mask, --logprobs-mode, processed_logprobs, --enable-scale-out]\n"
    "  gen:\n"
    "    build: .\n"
    "    command: {command}\n"
    "    environment:\n"
    "{environment}"
)


def _compose(command: str = "python -m gen.main", environment: str = "      OPENAI_BASE_URL: http://vllm:8000/v1\n") -> dict[str, str]:
    files = _tree("")
    del files["run.sh"]
    return {**files, "docker-compose.yml": COMPOSE.format(command=command, environment=environment)}


@pytest.mark.parametrize(
    ("command", "environment"),
    [
        ("python -m gen.main", "      OPENAI_BASE_URL: http://vllm:8000/v1\n"),
        ("['python3', '-m', 'gen.main']", "      - OPENAI_API_KEY=EMPTY\n      - OPENAI_BASE_URL=http://vllm:8000/v1\n"),
        ("python src/gen/main.py", "      OPENAI_BASE_URL: 'http://vllm:8000/v1/'\n"),
    ],
)
def test_the_compose_service_environment_ties_the_client(tmp_path: Path, command: str, environment: str) -> None:
    assert check(tmp_path, _compose(command, environment)) == [("client.py", 9, "RPL301")]


@pytest.mark.parametrize(
    "environment",
    [
        "      OPENAI_BASE_URL: ${BASE_URL}\n",  # compose substitutes it
        "      - OPENAI_BASE_URL\n",  # the host's value
        "      OPENAI_BASE_URL: http://vllm:8001/v1\n",  # another port
        "      OPENAI_API_KEY: EMPTY\n",  # the image's or nobody's
    ],
)
def test_a_compose_environment_not_decided_ties_nothing(tmp_path: Path, environment: str) -> None:
    assert check(tmp_path, _compose(environment=environment)) == []


# a Kubernetes container runs the program with the variable in its `env`

KUBERNETES = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: policy\nspec:\n  template:\n    metadata:\n      labels: {app: policy}\n"
    "    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.34.0\n"
    "          args: [m, --return-sampling-mask, --logprobs-mode, processed_logprobs, --enable-scale-out]\n"
    "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: policy-svc\n"
    "spec:\n  selector: {app: policy}\n  ports:\n    - port: 8000\n      targetPort: 8000\n"
    "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: gen\nspec:\n  template:\n    spec:\n      containers:\n"
    "        - name: gen\n          image: gen:latest\n          command: {command}\n          env:\n{env}"
)


def _kubernetes(command: str, env: str) -> dict[str, str]:
    files = _tree("")
    del files["run.sh"]
    return {**files, "deploy/k8s.yaml": KUBERNETES.replace("{command}", command).replace("{env}", env)}


@pytest.mark.parametrize(
    ("command", "env"),
    [
        ("[python, -m, gen.main]", "            - name: OPENAI_BASE_URL\n              value: http://policy-svc:8000/v1\n"),
        ("[python3]\n          args: [-m, gen.main]", "            - {name: OPENAI_BASE_URL, value: 'http://policy-svc:8000/v1'}\n"),
    ],
)
def test_the_kubernetes_container_env_ties_the_client(tmp_path: Path, command: str, env: str) -> None:
    assert check(tmp_path, _kubernetes(command, env)) == [("client.py", 9, "RPL301")]


@pytest.mark.parametrize(
    "env",
    [
        "            - name: OPENAI_BASE_URL\n              valueFrom: {configMapKeyRef: {name: urls, key: base}}\n",
        "            - name: OPENAI_BASE_URL\n              value: http://$(HOST):8000/v1\n",
        "            - name: OPENAI_BASE_URL\n              value: http://policy-svc:80/v1\n",
    ],
)
def test_a_kubernetes_env_not_decided_ties_nothing(tmp_path: Path, env: str) -> None:
    assert check(tmp_path, _kubernetes("[python, -m, gen.main]", env)) == []


# a justfile recipe runs the program with the variable exported (the reading `os.environ["NAME"]` shares)

JUSTFILE = (
    'set dotenv-load := false\n\nexport OPENAI_BASE_URL := "http://localhost:8000/v1"\n\ngen:\n    PYTHONPATH=src python -m gen.main\n'
)


def test_the_address_a_justfile_exports_ties_the_client(tmp_path: Path) -> None:
    assert check(tmp_path, {**_tree(SERVE), "justfile": JUSTFILE}) == [("client.py", 9, "RPL301")]


@pytest.mark.parametrize(
    "justfile",
    [
        JUSTFILE.replace("set dotenv-load := false", "set dotenv-load"),  # a dotenv file may fill the environment
        JUSTFILE.replace("export OPENAI_BASE_URL", "OPENAI_BASE_URL"),  # not exported: the caller's
        JUSTFILE.replace("8000/v1", "8001/v1"),  # another port
    ],
)
def test_an_address_the_justfile_does_not_decide_ties_nothing(tmp_path: Path, justfile: str) -> None:
    assert check(tmp_path, {**_tree(SERVE), "justfile": justfile}) == []


def test_a_makefile_near_that_names_the_variable_ties_nothing(tmp_path: Path) -> None:
    """The Makefile may run the program with another address (make's reading is not followed here)."""
    files = _tree(SERVE + "export OPENAI_BASE_URL=http://localhost:8000/v1\nPYTHONPATH=src python -m gen.main\n")
    files["Makefile"] = "gen:\n\tOPENAI_BASE_URL=https://api.example.com/v1 PYTHONPATH=src python -m gen.main\n"
    assert check(tmp_path, files) == []
