"""Round 21's RPL3xx misses, as forms users write:

- `asyncio.create_subprocess_exec("vllm", *args.argv())`: the program spelt in the call and the words a
  dataclass's method returns, read as one command line (a word from `sys.argv` keeps the launch open);
- `table["models"].get(model, {})` with `model` from `--model`'s argparse default (or an
  `os.environ.get` default): that model's row, the finding resting on the default (a model from
  `sys.argv`, or a `--model` with no default, stays open);
- `os.environ["REPLAY_BASE_URL"]` in a module that a justfile of the tree runs with the variable
  exported (`export NAME := "..."`, `set export`, a recipe line's `NAME=value` prefix): the client is
  tied to the replay server; the caller's environment, another port, runs that disagree, a dotenv
  file, a Python file or a script near that names the variable leave the address unknown."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.readers.justfile_runs import justfile_runs
from replaylint.readers.python_runs import ProgramRun
from replaylint.source import SourceFile


def found(root: Path) -> list[tuple[str, str, int]]:
    out = io.StringIO()
    arguments = ["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(arguments)
    return sorted(
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in json.loads(out.getvalue())
    )


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


# 1. `create_subprocess_exec(program, *words)`

DATACLASS_LAUNCHER = """import asyncio
import sys
from dataclasses import dataclass, field


@dataclass
class ServerArgs:
    model: str = "Qwen/Qwen3-8B"
    scale_out: bool = False
    extra: list[str] = field(default_factory=list)

    def argv(self) -> list[str]:
        argv = ["serve", self.model, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
        if self.scale_out:
            argv.append("--enable-scale-out")
        return argv + self.extra


async def main() -> None:
    args = ServerArgs(ARGUMENTS)
    proc = await asyncio.create_subprocess_exec("vllm", *args.argv())
    await proc.wait()
"""


def test_exec_of_a_dataclass_argv_without_scale_out_is_reported_at_the_mask_word(tmp_path: Path) -> None:
    write(tmp_path, {"launch.py": DATACLASS_LAUNCHER.replace("ARGUMENTS", 'extra=["--port", "8001"]')})
    assert found(tmp_path) == [("RPL301", "launch.py", 13)]


def test_exec_of_a_dataclass_argv_whose_field_opens_scale_out_is_clean(tmp_path: Path) -> None:
    write(tmp_path, {"launch.py": DATACLASS_LAUNCHER.replace("ARGUMENTS", "scale_out=True")})
    assert found(tmp_path) == []


def test_exec_of_a_dataclass_argv_with_words_from_the_command_line_stays_open(tmp_path: Path) -> None:
    write(tmp_path, {"launch.py": DATACLASS_LAUNCHER.replace("ARGUMENTS", "extra=sys.argv[1:]")})
    assert found(tmp_path) == []


def test_exec_of_the_interpreter_and_module_with_a_list_of_the_module_spread(tmp_path: Path) -> None:
    launcher = (
        "import asyncio\nimport sys\n\nSERVER_ARGS = [\n    '--model', 'Qwen/Qwen3-8B',\n    '--return-sampling-mask',\n"
        "    '--logprobs-mode', 'processed_logprobs',\n]\n\n\nasync def main():\n"
        "    return await asyncio.create_subprocess_exec(sys.executable, '-m', 'vllm.entrypoints.openai.api_server', *SERVER_ARGS)\n"
    )
    write(tmp_path, {"serve.py": launcher})
    assert found(tmp_path) == [("RPL301", "serve.py", 6)]


def test_exec_with_a_spread_method_of_a_plain_object_with_scale_out_is_clean(tmp_path: Path) -> None:
    launcher = (
        "import asyncio\n\n\nclass Server:\n    def __init__(self, port):\n        self.port = port\n\n"
        "    def words(self):\n        return ['serve', 'Qwen/Qwen3-8B', '--port', str(self.port), '--return-sampling-mask',\n"
        "                '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']\n\n"
        "    async def start(self):\n        return await asyncio.create_subprocess_exec('vllm', *self.words())\n\n\n"
        "asyncio.run(Server(8001).start())\n"
    )
    write(tmp_path, {"serve.py": launcher})
    assert found(tmp_path) == []


# 2. a per-model row picked by a key from a default

TABLE = """defaults:
  temperature: 1.0
  top_k: 50
models:
  Qwen/Qwen3-8B:
    PENALTY_OF_QWEN
  meta-llama/Llama-3.1-8B-Instruct:
    PENALTY_OF_LLAMA
"""
SAMPLING = """from pathlib import Path

import yaml

TABLE = Path(__file__).resolve().parent.parent / "configs" / "sampling.yaml"


def extra_body_for(model: str) -> dict:
    table = yaml.safe_load(TABLE.read_text())
    return {**table["defaults"], **table["models"].get(model, {})}
"""
RUN = """import argparse
import os
import sys

import requests

from rollout.sampling import extra_body_for


def main() -> None:
    MODEL_READ
    body = {"token_ids": [151644, 872, 198], "sampling_params": extra_body_for(model)}
    print(requests.post("http://localhost:8100/inference/v1/generate", json=body, timeout=600).json())
"""
SERVE = "serve:\n\tvllm serve Qwen/Qwen3-8B --port 8100 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


def table_tree(root: Path, model_read: str, penalised: str = "qwen") -> Path:
    rows = {"PENALTY_OF_QWEN": "top_k: 20", "PENALTY_OF_LLAMA": "top_k: 40"}
    rows[f"PENALTY_OF_{penalised.upper()}"] = "frequency_penalty: 0.3"
    table = TABLE
    for marker, row in rows.items():
        table = table.replace(marker, row)
    files = {"Makefile": SERVE, "configs/sampling.yaml": table, "rollout/__init__.py": "", "rollout/sampling.py": SAMPLING}
    return write(root, {**files, "rollout/run.py": RUN.replace("MODEL_READ", model_read)})


ARGPARSE_MODEL = (
    'parser = argparse.ArgumentParser()\n    parser.add_argument("--model", default="Qwen/Qwen3-8B")\n    model = parser.parse_args().model'
)


def test_the_row_of_the_argparse_default_model_sends_its_frequency_penalty(tmp_path: Path) -> None:
    assert found(table_tree(tmp_path, ARGPARSE_MODEL)) == [("RPL302", "configs/sampling.yaml", 6)]


def test_the_row_of_a_model_that_is_not_the_default_is_not_sent(tmp_path: Path) -> None:
    assert found(table_tree(tmp_path, ARGPARSE_MODEL, penalised="llama")) == []


def test_the_row_of_an_environment_default_model_sends_its_frequency_penalty(tmp_path: Path) -> None:
    model_read = 'model = os.environ.get("MODEL", "Qwen/Qwen3-8B")'
    assert found(table_tree(tmp_path, model_read)) == [("RPL302", "configs/sampling.yaml", 6)]


def test_a_model_from_the_command_line_picks_no_row(tmp_path: Path) -> None:
    assert found(table_tree(tmp_path, "model = sys.argv[1]")) == []


def test_a_required_model_option_picks_no_row(tmp_path: Path) -> None:
    model_read = (
        'parser = argparse.ArgumentParser()\n    parser.add_argument("--model", required=True)\n    model = parser.parse_args().model'
    )
    assert found(table_tree(tmp_path, model_read)) == []


def test_a_python_table_row_picked_by_the_default_model(tmp_path: Path) -> None:
    client = (
        "import argparse\n\nimport requests\n\nPER_MODEL = {\n    'Qwen/Qwen3-8B': {'presence_penalty': 0.5},\n"
        "    'meta-llama/Llama-3.1-8B-Instruct': {},\n}\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--model', default='Qwen/Qwen3-8B')\n    model = parser.parse_args().model\n"
        "    params = {'temperature': 1.0, 'top_k': 50, **PER_MODEL.get(model, {})}\n"
        "    body = {'token_ids': [1, 2], 'sampling_params': params}\n"
        "    return requests.post('http://localhost:8100/inference/v1/generate', json=body).json()\n"
    )
    write(tmp_path, {"Makefile": SERVE, "client.py": client})
    assert found(tmp_path) == [("RPL302", "client.py", 6)]


# 3. an address a justfile exports to the program

CLIENTS = 'import os\n\nfrom openai import OpenAI\n\n\ndef make_client():\n    return OpenAI(base_url=os.environ["REPLAY_BASE_URL"], api_key="EMPTY")\n'
CHAT = """from rollout.clients import make_client


def rollout(prompt):
    client = make_client()
    return client.chat.completions.create(model="Qwen/Qwen3-8B", messages=[{"role": "user", "content": prompt}])
"""
JUSTFILE = """set dotenv-load := false

export REPLAY_BASE_URL := "http://127.0.0.1:8000/v1"

serve:
    vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out

rollout:
    python -m rollout.chat
"""


def justfile_tree(root: Path, justfile: str = JUSTFILE, **more: str) -> Path:
    files = {"justfile": justfile, "rollout/__init__.py": "", "rollout/clients.py": CLIENTS, "rollout/chat.py": CHAT}
    return write(root, {**files, **more})


def test_a_chat_client_made_from_the_justfile_export_is_tied_to_the_replay_server(tmp_path: Path) -> None:
    assert found(justfile_tree(tmp_path)) == [("RPL301", "rollout/chat.py", 6)]


def test_set_export_exports_the_address_too(tmp_path: Path) -> None:
    justfile = JUSTFILE.replace("export REPLAY_BASE_URL", "set export\nREPLAY_BASE_URL")
    assert found(justfile_tree(tmp_path, justfile)) == [("RPL301", "rollout/chat.py", 6)]


def test_a_recipe_line_prefix_gives_the_address(tmp_path: Path) -> None:
    justfile = JUSTFILE.replace('export REPLAY_BASE_URL := "http://127.0.0.1:8000/v1"\n', "").replace(
        "    python -m rollout.chat", "    REPLAY_BASE_URL=http://localhost:8000/v1 python3 -m rollout.chat"
    )
    assert found(justfile_tree(tmp_path, justfile)) == [("RPL301", "rollout/chat.py", 6)]


def test_an_address_the_justfile_leaves_to_the_caller_is_unknown(tmp_path: Path) -> None:
    justfile = JUSTFILE.replace('export REPLAY_BASE_URL := "http://127.0.0.1:8000/v1"\n', "")
    assert found(justfile_tree(tmp_path, justfile)) == []


def test_an_address_on_another_port_is_not_the_replay_server(tmp_path: Path) -> None:
    assert found(justfile_tree(tmp_path, JUSTFILE.replace("8000/v1", "9000/v1"))) == []


def test_runs_that_give_two_addresses_leave_it_unknown(tmp_path: Path) -> None:
    justfile = JUSTFILE + "\nother:\n    REPLAY_BASE_URL=http://127.0.0.1:9000/v1 python -m rollout.chat\n"
    assert found(justfile_tree(tmp_path, justfile)) == []


def test_a_dotenv_file_the_justfile_loads_may_set_the_address(tmp_path: Path) -> None:
    justfile = JUSTFILE.replace("set dotenv-load := false", "set dotenv-load")
    assert found(justfile_tree(tmp_path, justfile)) == []


def test_a_python_file_near_that_names_the_variable_may_set_it(tmp_path: Path) -> None:
    setter = 'import os\n\nos.environ["REPLAY_BASE_URL"] = "http://127.0.0.1:9000/v1"\n'
    assert found(justfile_tree(tmp_path, **{"rollout/env.py": setter})) == []


def test_a_script_near_that_runs_the_program_with_another_address_leaves_it_unknown(tmp_path: Path) -> None:
    script = "#!/bin/sh\nexport REPLAY_BASE_URL=http://127.0.0.1:9000/v1\npython -m rollout.chat\n"
    assert found(justfile_tree(tmp_path, **{"scripts/run.sh": script})) == []


def test_a_justfile_that_runs_another_program_gives_it_nothing(tmp_path: Path) -> None:
    assert found(justfile_tree(tmp_path, JUSTFILE.replace("rollout.chat", "rollout.evaluate"))) == []


def test_justfile_runs_read_prefixes_runners_and_lines_not_followed() -> None:
    text = (
        'export U := "http://a:1"\nr:\n    cd src && U=http://b:2 python3 -m pkg.main --x 1\n'
        "    uv run python tools/gen.py\n    python -m pkg.other | tee log\n    pip install python-dotenv\n"
    )
    runs = justfile_runs(SourceFile("justfile", text), "U")
    assert [(run.module, run.path, run.value) for run in runs] == [
        ("pkg.main", None, "http://b:2"),
        (None, "tools/gen.py", "http://a:1"),
        (None, None, None),
    ]
    assert all(isinstance(run, ProgramRun) for run in runs)


# 4. an address a shell script or a compose service gives the program (the reading `OPENAI_BASE_URL` shares)

SERVE_ONLY = JUSTFILE.replace('export REPLAY_BASE_URL := "http://127.0.0.1:8000/v1"\n', "").replace(
    "\nrollout:\n    python -m rollout.chat\n", ""
)
SCRIPT = "#!/bin/bash\nexport REPLAY_BASE_URL=http://127.0.0.1:8000/v1\nnohup python -m rollout.chat > log 2>&1\n"


def test_the_address_a_script_exports_ties_the_client(tmp_path: Path) -> None:
    assert found(justfile_tree(tmp_path, SERVE_ONLY, **{"scripts/rollout.sh": SCRIPT})) == [("RPL301", "rollout/chat.py", 6)]


@pytest.mark.parametrize(
    "script",
    [
        SCRIPT.replace("export REPLAY_BASE_URL", "REPLAY_BASE_URL"),  # not exported: the caller's
        SCRIPT.replace(
            "export REPLAY_BASE_URL=http://127.0.0.1:8000/v1\n",
            'if [ -n "$1" ]; then\n  export REPLAY_BASE_URL=http://127.0.0.1:8000/v1\nfi\n',
        ),
        SCRIPT.replace("8000", "9000"),  # another port
    ],
)
def test_an_address_the_script_does_not_decide_leaves_it_unknown(tmp_path: Path, script: str) -> None:
    assert found(justfile_tree(tmp_path, SERVE_ONLY, **{"scripts/rollout.sh": script})) == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # a GitLab CI job is not read as a run here
        (
            ".gitlab-ci.yml",
            "rollout:\n  variables:\n    REPLAY_BASE_URL: http://127.0.0.1:9000/v1\n  script:\n    - python -m rollout.chat\n",
        ),
        # nor is a launcher in front of python
        ("scripts/train.sh", "#!/bin/bash\nexport REPLAY_BASE_URL=http://127.0.0.1:9000/v1\ntorchrun --nproc_per_node 2 rollout/chat.py\n"),
    ],
)
def test_a_file_near_that_may_run_the_program_with_another_address_leaves_it_unknown(tmp_path: Path, name: str, text: str) -> None:
    assert found(justfile_tree(tmp_path, **{name: text})) == []


COMPOSE = (
    "services:\n  vllm:\n    image: vllm/vllm-openai:v0.34.0\n"
    "    command: [Qwen/Qwen3-8B, --port, '8000', --return-sampling-mask, --logprobs-mode, processed_logprobs, --enable-scale-out]\n"
    "  rollout:\n    build: .\n    command: python -m rollout.chat\n    environment:\n      REPLAY_BASE_URL: {url}\n"
)


@pytest.mark.parametrize(("url", "expected"), [("http://vllm:8000/v1", [("RPL301", "rollout/chat.py", 6)]), ("${{URL}}", [])])
def test_the_address_a_compose_service_gives_the_program(tmp_path: Path, url: str, expected: list) -> None:
    assert found(justfile_tree(tmp_path, "", **{"docker-compose.yml": COMPOSE.format(url=url)})) == expected


def test_a_script_run_is_placed_on_its_export() -> None:
    from replaylint.readers.shell.program_runs import program_runs
    from replaylint.source import ExtractContext

    context = ExtractContext(read_text=lambda path: None, list_folder=lambda path: [], root=".")
    (run,) = program_runs(SourceFile("run.sh", SCRIPT), context, "REPLAY_BASE_URL")
    assert (run.module, run.value, run.at.start_line, run.at.start_col) == ("rollout.chat", "http://127.0.0.1:8000/v1", 2, 24)
