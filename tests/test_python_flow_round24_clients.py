"""What held-out rounds 24/25 made the value flow follow for HTTP clients of a replay server
another file starts (tests/data/python_flow/h24_minicpm_openai_api_demo_chat_route,
h25_llama_stack_remote_vllm_chat_route).

A server whose word list a helper grows in a loop over a mapping the program spells out (MiniCPM's
`for flag, value in SERVER_OPTIONS.items(): cmd += [flag, value]`, then `subprocess.Popen(build_command())`)
is read word by word, so its port ties the clients of other files; a mapping with a value from the
run leaves the port unknown (no tie). An OpenAI client an object's `self.client` holds, set to None
in `__init__` and made in another method (llama-stack's `initialize`: `self.client =
AsyncOpenAI(base_url=self.config.url)`), is read with what each construction of the class gives
`__init__` (a pydantic config's default URL); a URL given from the run, or a class nothing in the
tree constructs, ties it to nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# MiniCPM: the server's words grown in a loop over a dict of options

SERVER = (
    "import subprocess\n"
    "{imports}"
    "\n"
    "OPTIONS = {options}\n"
    "\n"
    "\n"
    "def build_command():\n"
    "    cmd = ['vllm', 'serve', 'm', '--trust-remote-code']\n"
    "{loop}"
    "    cmd += ['--return-sampling-mask', '--enable-scale-out']\n"
    "    return cmd\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    subprocess.Popen(build_command()).wait()\n"
)
LOOPS = [
    "    for flag, value in OPTIONS.items():\n        cmd += [flag, value]\n",
    "    for flag, value in OPTIONS.items():\n        cmd.extend([flag, value])\n",
    "    for flag, value in OPTIONS.items():\n        cmd.append(flag)\n        cmd.append(value)\n",
]
OPTIONS = "{'--host': '127.0.0.1', '--port': '8000', '--logprobs-mode': 'processed_logprobs'}"
CLIENT = (
    "from openai import OpenAI\n"
    "\n"
    "client = OpenAI(api_key='k', base_url='http://127.0.0.1:{port}/v1/')\n"
    "\n"
    "\n"
    "def chat():\n"
    "    return client.chat.completions.create(model='m', messages=[], temperature=0.8)\n"  # line 7
)


def _server(loop: str = LOOPS[0], options: str = OPTIONS, imports: str = "") -> str:
    return SERVER.format(imports=imports, options=options, loop=loop)


@pytest.mark.parametrize("loop", LOOPS)
def test_a_server_whose_words_a_loop_over_a_dict_adds(tmp_path: Path, loop: str) -> None:
    files = {"start_server.py": _server(loop), "demo.py": CLIENT.format(port=8000)}
    assert check(tmp_path, files) == [("demo.py", 7, "RPL301")]


def test_the_dict_spelt_in_the_loop(tmp_path: Path) -> None:
    loop = f"    for flag, value in {OPTIONS}.items():\n        cmd += [flag, value]\n"
    files = {"start_server.py": _server(loop), "demo.py": CLIENT.format(port=8000)}
    assert check(tmp_path, files) == [("demo.py", 7, "RPL301")]


def test_a_client_of_another_port_is_not_tied(tmp_path: Path) -> None:
    assert check(tmp_path, {"start_server.py": _server(), "demo.py": CLIENT.format(port=8001)}) == []


def test_a_port_from_the_run_ties_nothing(tmp_path: Path) -> None:
    options = "{'--port': os.environ['PORT'], '--logprobs-mode': 'processed_logprobs'}"
    files = {"start_server.py": _server(options=options, imports="import os\n"), "demo.py": CLIENT.format(port=8000)}
    assert check(tmp_path, files) == []


def test_a_server_without_the_mask_ties_nothing(tmp_path: Path) -> None:
    server = _server().replace("'--return-sampling-mask', ", "")
    assert check(tmp_path, {"start_server.py": server, "demo.py": CLIENT.format(port=8000)}) == []


def test_the_server_own_findings_are_read_from_the_loop(tmp_path: Path) -> None:
    """The loop's words decide the server's own findings too: `--logprobs-mode` left out of the dict."""
    options = "{'--host': '127.0.0.1', '--port': '8000'}"
    found = check(tmp_path, {"start_server.py": _server(options=options)})
    assert [code for _, _, code in found] == ["RPL003"]


# llama-stack: `self.client` set to None in `__init__`, made in `initialize()` from the config

CONFIG = (
    "from pydantic import BaseModel, Field\n"
    "\n"
    "\n"
    "class AdapterConfig(BaseModel):\n"
    "    url: str | None = Field(default='http://localhost:8000/v1', description='the endpoint')\n"
    "    api_token: str | None = Field(default='fake')\n"
)
ADAPTER = (
    "from openai import AsyncOpenAI\n"
    "\n"
    "from .config import AdapterConfig\n"
    "\n"
    "\n"
    "class Adapter:\n"
    "    def __init__(self, config: AdapterConfig) -> None:\n"
    "        self.config = config\n"
    "        self.client = None\n"
    "\n"
    "    async def initialize(self) -> None:\n"
    "        self.client = {made}\n"
    "\n"
    "    async def chat_completion(self, model, messages):\n"
    "        r = await self.client.{route}.create(model=model, messages=messages)\n"  # line 15
    "        return r\n"
)
RUN = (
    "import asyncio\n"
    "import os\n"
    "\n"
    "from provider.adapter import Adapter\n"
    "from provider.config import AdapterConfig\n"
    "\n"
    "\n"
    "async def main():\n"
    "    adapter = Adapter({config})\n"
    "    await adapter.initialize()\n"
    "    await adapter.chat_completion('m', [])\n"
    "\n"
    "\n"
    "asyncio.run(main())\n"
)
SERVE = "#!/bin/bash\nvllm serve m --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
MADE = "AsyncOpenAI(base_url=self.config.url, api_key=self.config.api_token)"


def _adapter(config: str = "AdapterConfig()", made: str = MADE, route: str = "chat.completions", run: bool = True) -> dict[str, str]:
    files = {
        "serve.sh": SERVE,
        "provider/__init__.py": "",
        "provider/config.py": CONFIG,
        "provider/adapter.py": ADAPTER.format(made=made, route=route),
    }
    if run:
        files["run.py"] = RUN.format(config=config)
    return files


@pytest.mark.parametrize(
    ("config", "made", "route"),
    [
        ("AdapterConfig()", MADE, "chat.completions"),  # the config's default URL
        ("AdapterConfig()", MADE, "completions"),
        ("AdapterConfig(url='http://127.0.0.1:8000/v1')", MADE, "chat.completions"),
        ("AdapterConfig()", "AsyncOpenAI(base_url=self.config.url).with_options(timeout=60)", "chat.completions"),
    ],
)
def test_a_client_made_in_another_method_than_init(tmp_path: Path, config: str, made: str, route: str) -> None:
    assert check(tmp_path, _adapter(config, made, route)) == [("adapter.py", 15, "RPL301")]


@pytest.mark.parametrize(
    "config",
    [
        "AdapterConfig(url=os.environ['VLLM_URL'])",  # the address from the run
        "AdapterConfig(url='http://localhost:8001/v1')",  # another port
    ],
)
def test_a_client_whose_address_is_from_outside_or_another_port(tmp_path: Path, config: str) -> None:
    assert check(tmp_path, _adapter(config)) == []


def test_a_class_nothing_in_the_tree_constructs_ties_nothing(tmp_path: Path) -> None:
    """The provider's config comes from whoever makes the adapter (a stack's registry): not known."""
    assert check(tmp_path, _adapter(run=False)) == []


def test_two_clients_of_two_methods_tie_nothing(tmp_path: Path) -> None:
    files = _adapter()
    files["provider/adapter.py"] = files["provider/adapter.py"].replace(
        "    async def chat_completion",
        "    def reconnect(self) -> None:\n        self.client = AsyncOpenAI(base_url='http://localhost:9000/v1')\n\n    async def chat_completion",
    )
    assert check(tmp_path, files) == []


# KernelBench: a closure a factory returns, made and called in a script that imports the factory

UTILS = (
    "from openai import OpenAI\n"
    "\n"
    "PRESETS = {{\n"
    "    'local': {{'temperature': 0.8, 'server_port': 10210, 'server_address': 'localhost'}},\n"
    "    'remote': {{'temperature': 0.8, 'server_port': 443, 'server_address': 'api.example.com'}},\n"
    "}}\n"
    "\n"
    "\n"
    "def query_server(prompt, temperature=0.0, server_port=30000, server_address='localhost', server_type='sglang'):\n"
    "    url = f'http://{{server_address}}:{{server_port}}'\n"
    "    client = OpenAI(api_key='EMPTY', base_url=f'{{url}}/v1')\n"
    "    response = client.completions.create(model='default', prompt=prompt, temperature=temperature)\n"  # line 12
    "    return response\n"
    "\n"
    "\n"
    "def make_server(server_type=None, model_name=None, **kwargs):\n"
    "    def _query(prompt):\n"
    "        server_args = PRESETS[server_type].copy()\n"
    "        if kwargs:\n"
    "            server_args.update(kwargs)\n"
    "{between}"
    "        return query_server(prompt, server_type=server_type, **server_args)\n"
    "\n"
    "    return _query\n"
)
SCRIPT = (
    "import sys\n"
    "\n"
    "from utils import make_server\n"
    "\n"
    "\n"
    "def main():\n"
    "    server = make_server({given})\n"
    "{calls}"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)
LOCAL_SERVE = "#!/bin/bash\nvllm serve m --port 10210 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
IN_A_LOOP = "    for problem in ['a', 'b']:\n        print(server('write ' + problem))\n"
ONCE = "    print(server('write a kernel'))\n"


def _kernelbench(given: str = "server_type='local'", calls: str = IN_A_LOOP, between: str = "") -> dict[str, str]:
    return {
        "serve_local.sh": LOCAL_SERVE,
        "utils.py": UTILS.format(between=between),
        "generate.py": SCRIPT.format(given=given, calls=calls),
    }


@pytest.mark.parametrize(
    ("given", "calls"),
    [
        ("server_type='local'", IN_A_LOOP),  # the closure called once per turn of a loop
        ("server_type='local'", ONCE),
        ("'local'", ONCE),
        ("server_type='local', model_name=None", IN_A_LOOP),
    ],
)
def test_a_closure_made_in_a_script_that_imports_its_factory(tmp_path: Path, given: str, calls: str) -> None:
    assert check(tmp_path, _kernelbench(given, calls)) == [("utils.py", 12, "RPL301")]


@pytest.mark.parametrize(
    "given",
    [
        "server_type='remote'",  # another preset: another host
        "server_type=sys.argv[1]",  # the preset from the run
        "server_type='local', server_port=int(sys.argv[2])",  # a port from the run, through **kwargs
        "server_type='local', server_port=8000",  # another port, through **kwargs
    ],
)
def test_a_closure_whose_preset_is_another_or_from_the_run(tmp_path: Path, given: str) -> None:
    assert check(tmp_path, _kernelbench(given)) == []


def test_a_closure_whose_address_a_branch_not_decided_changes(tmp_path: Path) -> None:
    between = "        if len(prompt) > 10:\n            server_args['server_port'] = 8000\n"
    assert check(tmp_path, _kernelbench(between=between)) == []
