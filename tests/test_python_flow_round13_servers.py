"""What held-out round 13 (tests/data/python_flow/h13_*) made the value flow follow around servers
and the engines Ray actors start: an `os.environ` write of the runner variable under a branch of
the actor's `__init__`, decided with the arguments of the actor's construction in another module
(a write whose branch is decided against never runs; one that cannot be decided is reported as
before); a `vllm serve` whose port another module gives (`str(PORT)`), tied to the HTTP clients
of other files; and server flags built from a dataclass by `asdict` and a `--key value` loop
(AReaL's `get_py_cmd`), started by a helper's `Popen`. Lists changed in ways not followed stay
unread (no finding rests on words that may be there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

# `os.environ[...] = "0"` in a Ray actor's `__init__` under a flag of the config it is made with

CONFIG = (
    "from dataclasses import dataclass\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class EngineConfig:\n"
    "    model: str = 'm'\n"
    "    legacy_runner: bool = {default}\n"
    "    runner: str = {runner!r}\n"
)
ACTOR = (
    "import os\n"
    "\n"
    "import ray\n"
    "from vllm import LLM\n"
    "\n"
    "from config import EngineConfig\n"
    "\n"
    "\n"
    "@ray.remote\n"
    "class Server:\n"
    "    def __init__(self, cfg: EngineConfig, rank: int):\n"
    "        {test}\n"
    "            {write}\n"
    "        self.llm = LLM(model=cfg.model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
)
LAUNCH = (
    "import ray\n"
    "\n"
    "from actor import Server\n"
    "from config import EngineConfig\n"
    "\n"
    "\n"
    "def create(cfg: EngineConfig):\n"
    "    return [Server.options(num_gpus=1).remote(cfg, rank) for rank in range(2)]\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    cfg = {made}\n"
    "    create(cfg)\n"
)
WRITES = [
    "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'",
    "os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')",
    "os.environ.update({'VLLM_USE_V2_MODEL_RUNNER': '0'})",
]


def _actor_tree(tmp_path: Path, *, default: str = "False", runner: str = "v2", test: str, write: str, made: str) -> list:
    files = {
        "config.py": CONFIG.format(default=default, runner=runner),
        "actor.py": ACTOR.format(test=test, write=write),
        "launch.py": LAUNCH.format(made=made),
    }
    return check(tmp_path, files)


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize(
    ("default", "runner", "test", "made"),
    [
        ("False", "v2", "if cfg.legacy_runner:", "EngineConfig()"),  # the dataclass default
        ("True", "v2", "if cfg.legacy_runner:", "EngineConfig(legacy_runner=False)"),  # the construction's keyword
        ("False", "v2", "if cfg.runner == 'v1':", "EngineConfig()"),
        ("True", "v2", "if not cfg.legacy_runner:", "EngineConfig()"),
    ],
)
def test_a_write_under_a_branch_the_construction_decides_against_never_runs(
    tmp_path: Path, write: str, default: str, runner: str, test: str, made: str
) -> None:
    assert _actor_tree(tmp_path, default=default, runner=runner, test=test, write=write, made=made) == []


@pytest.mark.parametrize(
    ("default", "runner", "test", "made"),
    [
        ("True", "v2", "if cfg.legacy_runner:", "EngineConfig()"),
        ("False", "v2", "if cfg.legacy_runner:", "EngineConfig(legacy_runner=True)"),
        ("False", "v1", "if cfg.runner == 'v1':", "EngineConfig()"),
        # not decided: the flag comes from the command line at run time
        ("False", "v2", "if cfg.legacy_runner:", "EngineConfig(legacy_runner=bool(int(input())))"),
        ("False", "v2", "if os.environ.get('LEGACY') == '1':", "EngineConfig()"),
    ],
)
def test_a_write_under_a_branch_taken_or_undecided_is_reported(tmp_path: Path, default: str, runner: str, test: str, made: str) -> None:
    found = _actor_tree(tmp_path, default=default, runner=runner, test=test, write=WRITES[0], made=made)
    assert found == [("actor.py", 13, "RPL206")]


def test_an_option_s_default_leaves_the_branch_undecided(tmp_path: Path) -> None:
    made = "EngineConfig(legacy_runner=ARGS.legacy_runner)"
    launch = LAUNCH.format(made=made).replace(
        "import ray\n",
        "import argparse\n\nimport ray\n\nPARSER = argparse.ArgumentParser()\nPARSER.add_argument('--legacy-runner', action='store_true')\nARGS = PARSER.parse_args()\n",
        1,
    )
    files = {
        "config.py": CONFIG.format(default="False", runner="v2"),
        "actor.py": ACTOR.format(test="if cfg.legacy_runner:", write=WRITES[0]),
        "launch.py": launch,
    }
    assert check(tmp_path, files) == [("actor.py", 13, "RPL206")]


def test_two_constructions_each_decide_their_own_engine(tmp_path: Path) -> None:
    launch = LAUNCH.format(made="EngineConfig()") + "    create(EngineConfig(legacy_runner=True))\n"
    files = {
        "config.py": CONFIG.format(default="False", runner="v2"),
        "actor.py": ACTOR.format(test="if cfg.legacy_runner:", write=WRITES[0]),
        "launch.py": launch,
    }
    assert check(tmp_path, files) == [("actor.py", 13, "RPL206")]


def test_a_module_level_write_under_a_false_constant_never_runs(tmp_path: Path) -> None:
    source = (
        "import os\n\nfrom vllm import LLM\n\nLEGACY = False\nif LEGACY:\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    )
    assert check(tmp_path, {"run.py": source}) == []
    assert check(tmp_path, {"run.py": source.replace("LEGACY = False", "LEGACY = True")}) == [("run.py", 7, "RPL206")]


# a `vllm serve` whose port another module gives, and an httpx client of it in a third module

SETTINGS = "MODEL = 'Qwen/Qwen3-4B'\nPORT = 8012\n"
SAMPLING = (
    "DEFAULT_SAMPLING = {{\n"
    "    'temperature': 1.0,\n"
    "    'top_k': {top_k},\n"
    "    'max_tokens': 1024,\n"
    "}}\n"
    "\n"
    "\n"
    "def generate_body(token_ids, **overrides):\n"
    "    return {{'token_ids': token_ids, 'sampling_params': {{**DEFAULT_SAMPLING, **overrides}}}}\n"
)
ROLLOUT = (
    "import asyncio\n"
    "\n"
    "import httpx\n"
    "\n"
    "from sampling import generate_body\n"
    "from settings import PORT\n"
    "\n"
    "\n"
    "async def rollout(prompts):\n"
    "    async with httpx.AsyncClient(base_url=f'http://127.0.0.1:{PORT}') as client:\n"
    "        replies = await asyncio.gather(*(client.post('/inference/v1/generate', json=generate_body(ids, max_tokens=512)) for ids in prompts))\n"
    "    return [reply.json() for reply in replies]\n"
)
FLAGS = "'--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'"


def _served_tree(tmp_path: Path, server: str, top_k: int = -1) -> list:
    files = {"settings.py": SETTINGS, "sampling.py": SAMPLING.format(top_k=top_k), "rollout.py": ROLLOUT, "server.py": server}
    return check(tmp_path, files)


@pytest.mark.parametrize(
    "server",
    [
        # the words in a name, the port `str()` of the imported constant
        "import subprocess\n\nfrom settings import MODEL, PORT\n\n\ndef start():\n"
        f"    cmd = ['vllm', 'serve', MODEL, '--port', str(PORT), {FLAGS}]\n    return subprocess.Popen(cmd)\n",
        # a list literal given to the call at module level
        "import subprocess\n\nfrom settings import MODEL, PORT\n\n"
        f"subprocess.Popen(['vllm', 'serve', MODEL, '--port', str(PORT), {FLAGS}])\n",
        # `--port=` written with an f-string of the imported constant
        "import subprocess\n\nfrom settings import PORT\n\n\ndef start():\n"
        f"    return subprocess.run(['vllm', 'serve', 'm', f'--port={{PORT}}', {FLAGS}])\n",
    ],
)
def test_a_server_whose_port_another_module_gives_serves_the_client(tmp_path: Path, server: str) -> None:
    assert _served_tree(tmp_path, server) == [("sampling.py", 3, "RPL102")]
    assert _served_tree(tmp_path, server, top_k=20) == []


@pytest.mark.parametrize(
    "port",
    [
        "str(PORT + 1)",  # another port: the client reaches no replay server
        "os.environ.get('PORT', str(PORT))",  # the port of the run: not known
    ],
)
def test_a_server_on_a_port_the_client_may_not_use_serves_nothing(tmp_path: Path, port: str) -> None:
    server = f"import os\nimport subprocess\n\nfrom settings import PORT\n\nsubprocess.Popen(['vllm', 'serve', 'm', '--port', {port}, {FLAGS}])\n"
    assert _served_tree(tmp_path, server) == []


def test_a_server_read_through_another_module_keeps_its_own_fix(tmp_path: Path) -> None:
    server = (
        "import subprocess\n\nfrom settings import PORT\n\n"
        "subprocess.Popen(['vllm', 'serve', 'm', '--port', str(PORT), '--return-sampling-mask', '--enable-scale-out', '--logprobs-mode', 'raw_logprobs'])\n"
    )
    (tmp_path / "settings.py").write_text(SETTINGS)
    (tmp_path / "server.py").write_text(server)
    found = [item for item in run(tmp_path) if item["code"] == "RPL003"]
    assert [item["location"]["row"] for item in found] == [5]
    assert found[0]["fix"] is not None


# a dataclass turned into server flags by `asdict` and a `--key value` loop, started by a helper's `Popen`

BUILDER = (
    "from dataclasses import asdict, dataclass\n"
    "\n"
    "\n"
    "def get_py_cmd(module, args):\n"
    "    cmd = ['python3', '-m', module]\n"
    "    for k, v in args.items():\n"
    "{loop}"
    "    return cmd\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class ServerConfig:\n"
    "    model: str = 'm'\n"
    "    max_model_len: int | None = None\n"
    "    enforce_eager: bool = False\n"
    "    enable_scale_out: bool = True\n"
    "    return_sampling_mask: bool = True\n"
    "    logprobs_mode: str = {mode!r}\n"
    "\n"
    "    def build_cmd(self, port):\n"
    "        args = dict(port=port, **asdict(self))\n"
    "        return get_py_cmd('vllm.entrypoints.openai.api_server', args)\n"
)
LOOPS = [
    # AReaL's: skip the empty values, a bare flag for True, else the flag and its value
    "        if v is None or v is False or v == '':\n"
    "            continue\n"
    "        flag = f\"--{k.replace('_', '-')}\"\n"
    "        if v is True:\n"
    "            cmd.append(flag)\n"
    "        else:\n"
    "            cmd.append(flag)\n"
    "            cmd.append(str(v))\n",
    # `+=` of the words, in the loop
    "        if v is True:\n"
    "            cmd += [f'--{k}'.replace('_', '-')]\n"
    "        elif v is not None and v is not False:\n"
    "            cmd += [f'--{k}'.replace('_', '-'), str(v)]\n",
    # `v not in (None, False)`, decided as Python decides it (round 16: a list of literals spelt out)
    "        if v is True:\n"
    "            cmd.append('--' + k.replace('_', '-'))\n"
    "        elif v not in (None, False):\n"
    "            cmd += ['--' + k.replace('_', '-'), str(v)]\n",
    # `extend` of the pair, the tests the other way round
    "        if v is True:\n"
    "            cmd.append('--' + k.replace('_', '-'))\n"
    "        elif v is not None and v is not False:\n"
    "            cmd.extend(['--' + k.replace('_', '-'), str(v)])\n",
]
SPAWN = (
    "import os\n"
    "import subprocess\n"
    "\n"
    "from serving import ServerConfig\n"
    "\n"
    "\n"
    "def launch(command):\n"
    "    env = os.environ.copy()\n"
    "    return subprocess.Popen(command, env=env)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    launch(ServerConfig(max_model_len=4096).build_cmd(8010))\n"
)


@pytest.mark.parametrize("loop", LOOPS)
def test_flags_built_from_a_dataclass_by_a_loop_reach_the_server(tmp_path: Path, loop: str) -> None:
    serving = BUILDER.format(loop=loop, mode="raw_logprobs")
    found = check(tmp_path, {"serving.py": serving, "start.py": SPAWN})
    assert found == [("serving.py", _line_of(serving, "logprobs_mode:"), "RPL003")]
    assert check(tmp_path, {"serving.py": BUILDER.format(loop=loop, mode="processed_logprobs"), "start.py": SPAWN}) == []


@pytest.mark.parametrize(
    "loop",
    [
        # a step the loop's turn cannot decide (`type(v) is not bool`): the words are not known
        "        if v is True:\n            cmd.append('--' + k)\n        elif type(v) is not bool:\n            cmd += ['--' + k, str(v)]\n",
        # a change other than adding words at the end
        "        cmd.insert(3, '--' + k)\n        cmd.insert(4, str(v))\n",
        # a nested loop
        "        for part in (k, v):\n            cmd.append(str(part))\n",
        # a `break`
        "        if k == 'port':\n            break\n        cmd += ['--' + k, str(v)]\n",
    ],
)
def test_flags_a_loop_builds_in_ways_not_followed_leave_the_server_unread(tmp_path: Path, loop: str) -> None:
    assert check(tmp_path, {"serving.py": BUILDER.format(loop=loop, mode="raw_logprobs"), "start.py": SPAWN}) == []


def test_the_words_a_turn_adds_keep_the_loop_s_order(tmp_path: Path) -> None:
    # the bare `--return-sampling-mask` of one turn is not taken as the value of the turn before it
    loop = "        if v is True:\n            cmd.append('--' + k.replace('_', '-'))\n        elif v:\n            cmd.append('--' + k.replace('_', '-'))\n            cmd.append(str(v))\n"
    builder = BUILDER.format(loop=loop, mode="raw_logprobs").replace("    enable_scale_out: bool = True\n", "")
    found = check(tmp_path, {"serving.py": builder, "start.py": SPAWN})
    assert ("serving.py", _line_of(builder, "logprobs_mode:"), "RPL003") in found


def _line_of(text: str, words: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if words in line)


@pytest.mark.parametrize(
    "change",
    [
        "    add_flags(cmd)\n",  # a function of the tree may add `--logprobs-mode processed_logprobs`
        "    cmd[3:3] = ['--logprobs-mode', 'processed_logprobs']\n",
    ],
)
def test_a_list_handed_on_or_changed_otherwise_is_not_read(tmp_path: Path, change: str) -> None:
    helper = (
        "import subprocess\n\n\ndef add_flags(words):\n    words += ['--logprobs-mode', 'processed_logprobs']\n\n\n"
        "def launch(command):\n    return subprocess.Popen(command)\n\n\n"
        "def build():\n    cmd = ['vllm', 'serve', 'm']\n    cmd.append('--return-sampling-mask')\n" + change + "    return cmd\n\n\n"
        "launch(build())\n"
    )
    assert check(tmp_path, {"serve.py": helper}) == []
    # read when nothing else touches it: the words the helper starts lack the logprobs mode
    assert ("serve.py", 14, "RPL003") in check(tmp_path, {"serve.py": helper.replace(change, "")})
