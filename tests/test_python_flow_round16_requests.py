"""What held-out round 16 (tests/data/python_flow/h16_*: llmonk, atropos, PipelineRL, Open-Reasoner-Zero)
made the value flow follow around servers and their clients: a server's words a helper builds from
its caller's config (`command = ["python", "-m", ..., str(config.vllm_port)]`, then
`subprocess.Popen(command)`), read with each call site's arguments, a value decided in the config's
field reported there; an object of a plain class whose `__init__` sets its attributes
(`self.vllm_port = 8000`), read as those attributes; and the object `@pydra.main(Config)` hands its
function. Values from outside, a branch, or another method leave the words and the address unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# a helper's word list built from its caller's config, started with `Popen(command)`

CONFIGS = {
    "dataclass": (
        "from dataclasses import dataclass\n"
        "\n"
        "\n"
        "@dataclass\n"
        "class ServerConfig:\n"
        "    model: str = 'Qwen/Qwen2.5-1.5B-Instruct'\n"
        "    port: int = 8001\n"
        "    logprobs_mode: str = {mode!r}\n"
    ),
    "pydantic": (
        "from pydantic import BaseModel, Field\n"
        "\n"
        "\n"
        "class ServerConfig(BaseModel):\n"
        "    model: str = Field('Qwen/Qwen2.5-1.5B-Instruct', description='the model')\n"
        "    port: int = Field(8001, description='the port')\n"
        "    logprobs_mode: str = Field({mode!r}, description='the mode')\n"
    ),
}
HELPERS = [
    # the words spelt in one list (atropos's `start_vllm`)
    "def start_server(config):\n"
    "    command = [\n"
    "        'python', '-m', 'vllm.entrypoints.openai.api_server', '--model', config.model,\n"
    "        '--port', str(config.port), '--return-sampling-mask',\n"
    "        '--logprobs-mode', config.logprobs_mode, '--enable-scale-out',\n"
    "    ]\n"
    "    return subprocess.Popen(command)\n",
    # added to in steps
    "def start_server(config):\n"
    "    command = ['vllm', 'serve', config.model, '--port', str(config.port)]\n"
    "    command += ['--return-sampling-mask', '--enable-scale-out']\n"
    "    command.extend(['--logprobs-mode', config.logprobs_mode])\n"
    "    return subprocess.Popen(command, stdout=subprocess.DEVNULL)\n",
    # the list given to the call itself
    "def start_server(config):\n"
    "    return subprocess.Popen(['vllm', 'serve', config.model, '--return-sampling-mask',\n"
    "                             '--logprobs-mode', config.logprobs_mode, '--enable-scale-out'])\n",
    # under a `with` (llmonk's `vllm_manager` context manager)
    "@contextmanager\n"
    "def start_server(config):\n"
    "    command = ['vllm', 'serve', config.model, '--return-sampling-mask',\n"
    "               '--logprobs-mode', config.logprobs_mode, '--enable-scale-out']\n"
    "    proc = subprocess.Popen(command)\n"
    "    try:\n"
    "        yield\n"
    "    finally:\n"
    "        proc.kill()\n",
]
STARTS = (
    "import subprocess\n"
    "from contextlib import contextmanager\n"
    "\n"
    "from config import ServerConfig\n"
    "\n"
    "\n"
    "{helper}"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    start_server({made})\n"
)


def _line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.mark.parametrize("kind", sorted(CONFIGS))
@pytest.mark.parametrize("helper", HELPERS)
def test_a_helpers_words_from_its_callers_config_are_judged_at_the_field(tmp_path: Path, kind: str, helper: str) -> None:
    config = CONFIGS[kind].format(mode="raw_logprobs")
    found = check(tmp_path, {"config.py": config, "serve.py": STARTS.format(helper=helper, made="ServerConfig()")})
    assert found == [("config.py", _line_of(config, "logprobs_mode:"), "RPL003")]


@pytest.mark.parametrize(
    ("mode", "made"),
    [
        ("processed_logprobs", "ServerConfig()"),  # the default is right
        ("raw_logprobs", "ServerConfig(logprobs_mode='processed_logprobs')"),  # the caller sets it right
        ("raw_logprobs", "ServerConfig(logprobs_mode=os.environ['MODE'])"),  # from outside: not known
    ],
)
@pytest.mark.parametrize("helper", HELPERS[:2])
def test_a_helpers_words_rest_on_what_the_caller_passes(tmp_path: Path, mode: str, made: str, helper: str) -> None:
    starts = "import os\n" + STARTS.format(helper=helper, made=made)
    assert check(tmp_path, {"config.py": CONFIGS["dataclass"].format(mode=mode), "serve.py": starts}) == []


# an object of a plain class whose `__init__` sets its attributes, and pydra's config

SERVER = (
    "import subprocess\n"
    "\n"
    "\n"
    "def serve():\n"
    "    subprocess.Popen(['vllm', 'serve', 'm', '--port', '8000', '--return-sampling-mask',\n"
    "                      '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
)
CLIENT = (
    "import requests\n"
    "{imports}"
    "\n"
    "\n"
    "class GenerateConfig{base}:\n"
    "    def __init__(self{params}):\n"
    "{init}"
    "        self.top_k = 20\n"
    "\n"
    "\n"
    "def run_inference(config, prompt):\n"
    "    url = f'http://localhost:{{config.vllm_port}}/v1/completions'\n"
    "    return requests.post(url, json={{'prompt': prompt, 'top_k': config.top_k}})\n"
    "\n"
    "\n"
    "{main}"
)
PLAIN_MAIN = "if __name__ == '__main__':\n    run_inference(GenerateConfig({given}), 'Q')\n"
PYDRA_MAIN = "@pydra.main(GenerateConfig)\ndef main(config):\n    run_inference(config, 'Q')\n\n\nif __name__ == '__main__':\n    main()\n"


def _client(init: str, main: str = PLAIN_MAIN, given: str = "", params: str = "", pydra: bool = False) -> str:
    return CLIENT.format(
        imports="import pydra\n" if pydra else "",
        base="(pydra.Config)" if pydra else "",
        params=params,
        init=("        super().__init__()\n" if pydra else "") + init,
        main=main.format(given=given),
    )


@pytest.mark.parametrize(
    "client",
    [
        _client("        self.vllm_port = 8000\n"),  # set in `__init__`
        _client("        self.vllm_port = port\n", params=", port", given="8000"),  # from the construction's argument
        _client("        self.vllm_port = port\n", params=", port=8000"),  # the parameter's default
        _client("        self.vllm_port = 8000\n", main=PYDRA_MAIN, pydra=True),  # llmonk's pydra config
    ],
)
def test_a_plain_objects_init_attributes_name_the_server(tmp_path: Path, client: str) -> None:
    found = check(tmp_path, {"serve.py": SERVER, "generate.py": client})
    assert found == [("generate.py", _line_of(client, "requests.post"), "RPL301")]


@pytest.mark.parametrize(
    "client",
    [
        _client("        self.vllm_port = 8001\n"),  # another server
        _client("        self.vllm_port = 8000 if fast else 8001\n", params=", fast"),  # the caller's branch: not known
        _client("        self.vllm_port = int(os.environ['PORT'])\n"),  # from outside
        _client("        if fast:\n            self.vllm_port = 8000\n", params=", fast=True"),  # under a branch
        _client("        self.vllm_port = 8000\n\n    def moved(self, port):\n        self.vllm_port = port\n"),  # set again
        _client("        self.vllm_port = 8001\n", main=PYDRA_MAIN, pydra=True),  # pydra's, another port
    ],
)
def test_a_plain_objects_attributes_not_known_tie_nothing(tmp_path: Path, client: str) -> None:
    client = "import os\n" + client
    assert check(tmp_path, {"serve.py": SERVER, "generate.py": client}) == []


# a client class of a namespace package (no `__init__.py`) made by a script in a folder beside it (atropos)

TRAINER = (
    "import subprocess\n"
    "\n"
    "\n"
    "def start():\n"
    "    subprocess.Popen(['vllm', 'serve', 'm', '--port', '9001', '--return-sampling-mask',\n"
    "                      '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
)
LIBRARY = (
    "import openai\n"
    "from pydantic import BaseModel, Field\n"
    "\n"
    "\n"
    "class ServerConfig(BaseModel):\n"
    "    base_url: str = Field(default='', description='the server')\n"
    "\n"
    "\n"
    "class Server:\n"
    "    def __init__(self, config: ServerConfig):\n"
    "        self.openai = openai.AsyncClient(api_key='x', base_url=config.base_url)\n"
    "\n"
    "    async def chat(self, **kwargs):\n"
    "        return await self.openai.chat.completions.create(**kwargs)\n"
)
ENVIRONMENT = (
    "from lib.server import Server, ServerConfig\n"
    "\n"
    "\n"
    "def configs():\n"
    "    return [ServerConfig(base_url={url!r})]\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    server = Server({made})\n"
)


@pytest.mark.parametrize("made", ["configs()[0]", "ServerConfig(base_url={url!r})"])
def test_a_client_class_of_a_namespace_package_is_read_with_its_constructions(tmp_path: Path, made: str) -> None:
    environment = ENVIRONMENT.format(url="http://localhost:9001/v1", made=made.format(url="http://localhost:9001/v1"))
    files = {"trainer/train.py": TRAINER, "lib/server.py": LIBRARY, "environments/env.py": environment}
    assert check(tmp_path, files) == [("server.py", _line_of(LIBRARY, "completions.create"), "RPL301")]


@pytest.mark.parametrize(
    "environment",
    [
        ENVIRONMENT.format(url="http://localhost:9002/v1", made="configs()[0]"),  # another port
        ENVIRONMENT.format(url="http://localhost:9001/v1", made="ServerConfig(base_url=os.environ['URL'])"),  # from outside
        "from lib.server import Server\n",  # made nowhere: the default "" names no server
    ],
)
def test_a_client_class_of_a_namespace_package_not_tied(tmp_path: Path, environment: str) -> None:
    files = {"trainer/train.py": TRAINER, "lib/server.py": LIBRARY, "environments/env.py": "import os\n" + environment}
    assert check(tmp_path, files) == []


# server flags appended in a loop over a config mapping's items (PipelineRL's `run_actor_llm`)

LAUNCHER = (
    "import os\n"
    "import subprocess\n"
    "import sys\n"
    "\n"
    "from omegaconf import OmegaConf\n"
    "\n"
    "\n"
    "def run_actor_llm(cfg, port):\n"
    "    cmd = [sys.executable, '-m', 'vllm.entrypoints.openai.api_server', '--model', str(cfg.model_path), '--port', str(port)]\n"
    "    kwargs = cfg.vllm_config.vllm_kwargs\n"
    "{loop}"
    "    return subprocess.Popen(cmd, env=dict(os.environ))\n"
    "\n"
    "\n"
    "def main():\n"
    "    cfg = OmegaConf.load(os.path.join(os.path.dirname(__file__), '..', 'conf', 'base.yaml'))\n"
    "    run_actor_llm(cfg, port=8080)\n"
)
FLAG_LOOPS = [
    # PipelineRL's: the flag, then its value unless empty, under a test of the mapping
    "    if kwargs:\n"
    "        for k, v in kwargs.items():\n"
    "            cmd.append(f'--{k}')\n"
    "            if v not in [None, '']:\n"
    "                cmd.append(str(v))\n",
    # without the test, a bare flag for an empty value, else the pair
    "    for k, v in kwargs.items():\n"
    "        if v == '':\n"
    "            cmd.append(f'--{k}')\n"
    "        else:\n"
    "            cmd.extend([f'--{k}', str(v)])\n",
    # `+=` of the pair
    "    for key, value in kwargs.items():\n        cmd += [f'--{key}'] if value == '' else [f'--{key}', str(value)]\n",
]
FLAGS = (
    "model_path: Qwen/Qwen2.5-7B\n"
    "vllm_config:\n"
    "  vllm_kwargs:\n"
    "    dtype: bfloat16\n"
    "    max-num-seqs: 256\n"
    '    return-sampling-mask: ""\n'
    "    logprobs-mode: processed_logprobs\n"
)


@pytest.mark.parametrize("loop", FLAG_LOOPS)
def test_flags_from_a_config_mappings_items_reach_the_server(tmp_path: Path, loop: str) -> None:
    files = {"pipelinerl/launch.py": LAUNCHER.format(loop=loop), "conf/base.yaml": FLAGS}
    assert check(tmp_path, files) == [("base.yaml", _line_of(FLAGS, "return-sampling-mask"), "RPL301")]


@pytest.mark.parametrize("loop", FLAG_LOOPS)
@pytest.mark.parametrize(
    "flags",
    [
        FLAGS + '    enable-scale-out: ""\n',  # the scale-out route is open
        FLAGS.replace("    dtype: bfloat16\n", "    dtype: ${oc.env:DTYPE}\n") + '    enable-scale-out: ""\n',
    ],
)
def test_flags_from_a_config_mapping_with_scale_out_are_silent(tmp_path: Path, loop: str, flags: str) -> None:
    assert check(tmp_path, {"pipelinerl/launch.py": LAUNCHER.format(loop=loop), "conf/base.yaml": flags}) == []


def test_flags_from_a_mapping_the_program_does_not_know_are_not_read(tmp_path: Path) -> None:
    launcher = LAUNCHER.format(loop=FLAG_LOOPS[0]).replace(
        "OmegaConf.load(os.path.join(os.path.dirname(__file__), '..', 'conf', 'base.yaml'))", "OmegaConf.load(sys.argv[1])"
    )
    assert check(tmp_path, {"pipelinerl/launch.py": launcher, "conf/base.yaml": FLAGS}) == []


def test_flags_from_a_dict_spelt_out_are_placed_at_their_key(tmp_path: Path) -> None:
    launcher = LAUNCHER.format(loop=FLAG_LOOPS[0]).replace(
        "cfg.vllm_config.vllm_kwargs", "{'dtype': 'bfloat16', 'return-sampling-mask': '', 'logprobs-mode': 'processed_logprobs'}"
    )
    launcher = launcher.replace("import sys\n", "import sys  # return-sampling-mask\n")
    assert check(tmp_path, {"pipelinerl/launch.py": launcher, "conf/base.yaml": FLAGS}) == [("launch.py", 10, "RPL301")]


# a request through a Ray actor's method that hands its arguments to the engine it stores (Open-Reasoner-Zero's `LLMActor`)

ACTOR = (
    "import ray\n"
    "import vllm\n"
    "from vllm import SamplingParams\n"
    "\n"
    "\n"
    "@ray.remote\n"
    "class LLMActor:\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        self.llm = vllm.LLM(*args, **kwargs)\n"
    "\n"
    "{method}"
    "\n"
    "\n"
    "def run(prompts):\n"
    "    engine = LLMActor.{made}('Qwen/Qwen2.5-7B', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    params = SamplingParams(temperature=1.0, top_k={top_k})\n"
    "    return ray.get(engine.generate.remote(prompts, sampling_params=params))\n"
)
FORWARDING = [
    "    def generate(self, *args, **kwargs):\n        return self.llm.generate(*args, **kwargs)\n",
    "    async def generate(self, *prompts, **options):\n        return self.llm.generate(*prompts, **options)\n",
]


@pytest.mark.parametrize("made", ["remote", "options(num_gpus=1).remote"])
@pytest.mark.parametrize("method", FORWARDING)
def test_a_request_through_an_actors_forwarding_method_reaches_its_engine(tmp_path: Path, method: str, made: str) -> None:
    actor = ACTOR.format(method=method, made=made, top_k=-1)
    assert check(tmp_path, {"actor.py": actor}) == [("actor.py", _line_of(actor, "top_k=-1"), "RPL102")]
    assert check(tmp_path, {"actor.py": ACTOR.format(method=method, made=made, top_k=20)}) == []


@pytest.mark.parametrize(
    "method",
    [
        # the method changes what it hands on
        "    def generate(self, *args, **kwargs):\n        kwargs['sampling_params'] = None\n        return self.llm.generate(*args, **kwargs)\n",
        # it hands the request to something else than the engine `__init__` stores
        "    def generate(self, *args, **kwargs):\n        return self.router.generate(*args, **kwargs)\n",
        # the engine is replaced by another method
        "    def generate(self, *args, **kwargs):\n        return self.llm.generate(*args, **kwargs)\n\n"
        "    def reload(self, model):\n        self.llm = load(model)\n",
        # only some of its arguments reach the engine
        "    def generate(self, prompts, **kwargs):\n        return self.llm.generate(prompts)\n",
    ],
)
def test_a_request_through_an_actors_other_method_is_not_tied(tmp_path: Path, method: str) -> None:
    assert check(tmp_path, {"actor.py": ACTOR.format(method=method, made="remote", top_k=-1)}) == []
