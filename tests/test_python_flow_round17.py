"""What held-out round 17 (tests/data/python_flow/h17_*) made the value flow follow: a `vllm serve`
command string the program grows (`cmd = f"..."`, `cmd += " --flag ..."`) and runs with
`shlex.split(cmd)`, `os.system(cmd)` or `os.popen(cmd)`, as it already read one run with
`shell=True` (Agentless's serve step); a worker method's server words that a config its
construction stores decides, spliced into a list (`[sys.executable, "-m", ..., *self._args()]`,
xtuner's vLLMWorker), a pydantic field's default deciding; `self.x` read in `__init__` after a
method it calls set it (camel's VLLMModel starting its own server and pointing its client at it).
Each stop stays silent: a piece from outside the tree or the run (unquoted, any number of words),
a separator `shlex.split` keeps inside a word, another engine's command, a config from a file or
the environment, a test the reader cannot decide, `self` handed to anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# A command string grown by `+=` and split by `shlex.split`, or run by `os.system`/`os.popen`

GROWN = (
    "{imports}\n\n"
    "MODEL = 'Qwen/Qwen2.5-Coder-32B-Instruct'\n"
    "PORT = 8000\n\n\n"
    "def serve():\n"
    "    cmd = f'vllm serve {{MODEL}} --port {{PORT}} --max-model-len 32768'\n"
    "    cmd += ' --return-sampling-mask --logprobs-mode processed_logprobs'\n"
    "{extra}"
    "    {run}\n\n\n"
    "serve()\n"
)


@pytest.mark.parametrize(
    ("imports", "run"),
    [
        ("import shlex\nimport subprocess", "subprocess.Popen(shlex.split(cmd)).wait()"),
        ("import subprocess\nfrom shlex import split", "subprocess.run(split(cmd), check=True)"),
        ("import os", "os.system(cmd)"),
        ("from os import system", "system(cmd)"),
        ("import os", "os.popen(cmd).read()"),
    ],
)
def test_grown_command_string_without_scale_out_is_reported_at_the_mask(tmp_path: Path, imports: str, run: str) -> None:
    source = GROWN.format(imports=imports, extra="", run=run)
    mask_line = 1 + next(n for n, line in enumerate(source.splitlines()) if "--return-sampling-mask" in line)
    assert check(tmp_path, {"serve.py": source}) == [("serve.py", mask_line, "RPL301")]


def test_grown_command_string_with_an_argparse_default_is_read(tmp_path: Path) -> None:
    source = (
        "import argparse\nimport shlex\nimport subprocess\n\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--port', type=int, default=8000)\n"
        "args = parser.parse_args()\n"
        "cmd = 'vllm serve m' + ' --port ' + str(args.port)\n"
        "cmd += ' --return-sampling-mask --logprobs-mode raw_logprobs --enable-scale-out'\n"
        "subprocess.Popen(shlex.split(cmd))\n"
    )
    assert check(tmp_path, {"serve.py": source}) == [("serve.py", 9, "RPL003")]


@pytest.mark.parametrize(
    ("imports", "extra", "run"),
    [
        # scale-out added: the generate route returns the masks
        ("import os", "    cmd += ' --enable-scale-out'\n", "os.system(cmd)"),
        # words from the environment: they may hold --enable-scale-out
        ("import os", "    cmd += ' ' + os.environ.get('EXTRA_ARGS', '')\n", "os.system(cmd)"),
        ("import os\nimport shlex\nimport subprocess", "    cmd += ' ' + os.environ['EXTRA']\n", "subprocess.Popen(shlex.split(cmd))"),
        # `shlex.split` keeps `;` inside a word: not read as two commands
        ("import shlex\nimport subprocess", "    cmd += ' ; echo started'\n", "subprocess.Popen(shlex.split(cmd))"),
    ],
)
def test_grown_command_string_that_may_scale_out_is_silent(tmp_path: Path, imports: str, extra: str, run: str) -> None:
    assert check(tmp_path, {"serve.py": GROWN.format(imports=imports, extra=extra, run=run)}) == []


def test_grown_command_string_of_another_engine_is_silent(tmp_path: Path) -> None:
    source = GROWN.format(imports="import os", extra="", run="os.system(cmd)").replace("vllm serve", "sglang serve")
    assert check(tmp_path, {"serve.py": source}) == []


# A worker whose server words come from the config its construction stores (xtuner's vLLMWorker):
# `cmd = [sys.executable, "-m", ..., *self._server_args()]`, a pydantic field's default deciding

CONFIG = (
    "from typing import Annotated\n\n"
    "from pydantic import BaseModel\n\n\n"
    "class RolloutConfig(BaseModel):\n"
    "    model_path: str\n"
    "    return_sampling_mask: bool = False\n"
    "    logprobs_mode: Annotated[str, 'vLLM logprobs mode.'] = {mode}\n"
    "    api_port: int = 8000\n"
)

WORKER = (
    "import subprocess\n"
    "import sys\n\n"
    "from config import RolloutConfig\n\n\n"
    "class Worker:\n"
    "    def __init__(self, config: RolloutConfig):\n"
    "        self.config = config\n\n"
    "    def _server_args(self):\n"
    "        cfg = self.config\n"
    "        args = ['--model', cfg.model_path, '--port', str(cfg.api_port), '--enable-scale-out']\n"
    "        if cfg.return_sampling_mask:\n"
    "            args += ['--return-sampling-mask', '--logprobs-mode', cfg.logprobs_mode]\n"
    "        return args\n\n"
    "    def launch(self):\n"
    "        {launch}\n"
)

SPAWN = "return subprocess.Popen([sys.executable, '-m', 'vllm.entrypoints.openai.api_server', *self._server_args()])"

MAIN = "from config import RolloutConfig\nfrom worker import Worker\n\n{made}\n"


@pytest.mark.parametrize(
    ("launch", "made"),
    [
        (SPAWN, "Worker(RolloutConfig(model_path='Qwen/Qwen3-8B', return_sampling_mask=True)).launch()"),
        (SPAWN, "worker = Worker(RolloutConfig(model_path='m', return_sampling_mask=True))\nworker.launch()"),
        (
            "cmd = ['vllm', 'serve', *self._server_args()]\n        subprocess.run(cmd, check=True)",
            "cfg = RolloutConfig(model_path='m', return_sampling_mask=True)\nWorker(cfg).launch()",
        ),
    ],
)
def test_config_field_default_reaching_the_server_words_is_reported_at_the_default(tmp_path: Path, launch: str, made: str) -> None:
    files = {
        "config.py": CONFIG.format(mode="'raw_logprobs'"),
        "worker.py": WORKER.format(launch=launch),
        "main.py": MAIN.format(made=made),
    }
    assert check(tmp_path, files) == [("config.py", 9, "RPL003")]


@pytest.mark.parametrize(
    ("mode", "made"),
    [
        ("'processed_logprobs'", "Worker(RolloutConfig(model_path='m', return_sampling_mask=True)).launch()"),
        # the mask stays off by the field's default
        ("'raw_logprobs'", "Worker(RolloutConfig(model_path='m')).launch()"),
        # the caller gives the mode from the environment
        (
            "'raw_logprobs'",
            "import os\nWorker(RolloutConfig(model_path='m', return_sampling_mask=True, logprobs_mode=os.environ['MODE'])).launch()",
        ),
        # the config comes from a file outside the tree
        ("'raw_logprobs'", "import json, sys\nWorker(RolloutConfig(**json.load(open(sys.argv[1])))).launch()"),
    ],
)
def test_config_field_default_that_does_not_decide_is_silent(tmp_path: Path, mode: str, made: str) -> None:
    files = {"config.py": CONFIG.format(mode=mode), "worker.py": WORKER.format(launch=SPAWN), "main.py": MAIN.format(made=made)}
    assert check(tmp_path, files) == []


def test_spliced_words_not_known_keep_the_launch_open(tmp_path: Path) -> None:
    source = (
        "import subprocess\nimport sys\n\n\n"
        "class Worker:\n"
        "    def __init__(self, extra):\n"
        "        self.extra = extra\n\n"
        "    def launch(self):\n"
        "        subprocess.Popen(['vllm', 'serve', 'm', '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', *self.extra])\n\n\n"
        "Worker(sys.argv[1:]).launch()\n"
    )
    assert check(tmp_path, {"serve.py": source}) == []


# `self.x` set in `__init__`, then set again by a method `__init__` calls (camel's VLLMModel: the
# class starts `vllm serve` itself when no url is given and points its client at it)

MODEL = (
    "import subprocess\n\n"
    "from openai import OpenAI\n\n\n"
    "class VLLMModel:\n"
    "    def __init__(self, model_type, url=None):\n"
    "        self.model_type = model_type\n"
    "        self._url = url\n"
    "        {start}\n"
    "        self._client = OpenAI(api_key='EMPTY', base_url=self._url)\n\n"
    "    def _start_server(self):\n"
    "        subprocess.Popen(['vllm', 'serve', self.model_type, '--port', '8000', '--return-sampling-mask',\n"
    "                          '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
    "        self._url = 'http://localhost:8000/v1'\n\n"
    "    def run(self, messages):\n"
    "        return self._client.chat.completions.create(messages=messages, model=self.model_type, temperature=0.7)\n\n\n"
)

START = "if not self._url:\n            self._start_server()"


@pytest.mark.parametrize(
    ("start", "made"),
    [
        (START, "VLLMModel('Qwen/Qwen2.5-1.5B-Instruct').run([])"),
        (START, "model = VLLMModel('m', url=None)\nmodel.run([])"),
        ("if self._url is None:\n            self._start_server()", "VLLMModel('m').run([])"),
        ("self._start_server()", "VLLMModel('m', url='http://elsewhere:9000/v1').run([])"),
    ],
)
def test_client_of_the_server_its_init_starts_is_judged(tmp_path: Path, start: str, made: str) -> None:
    source = MODEL.format(start=start) + made + "\n"
    call_line = 1 + next(n for n, line in enumerate(source.splitlines()) if "chat.completions.create" in line)
    assert check(tmp_path, {"model.py": source}) == [("model.py", call_line, "RPL301")]


@pytest.mark.parametrize(
    ("start", "made"),
    [
        # another server's url: the method that starts one is not called
        (START, "VLLMModel('m', url='http://elsewhere:9000/v1').run([])"),
        # the url from the environment: called or not is not known
        (START, "import os\nVLLMModel('m', url=os.environ.get('VLLM_BASE_URL')).run([])"),
        # `self` handed to something that may set the url again
        (START + "\n        register(self)", "register = print\nVLLMModel('m').run([])"),
        # a subclass starts its server elsewhere
        (
            START,
            "class Remote(VLLMModel):\n    def _start_server(self):\n        self._url = 'http://gpu-node:8000/v1'\n\n\n"
            "Remote('m').run([])",
        ),
    ],
)
def test_client_whose_url_init_may_not_set_is_silent(tmp_path: Path, start: str, made: str) -> None:
    assert check(tmp_path, {"model.py": MODEL.format(start=start) + made + "\n"}) == []
