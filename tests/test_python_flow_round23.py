"""What held-out round 23 (tests/data/python_flow/h23_*) made the value flow follow: an OmegaConf
config written out as YAML and read back (Super_MARIO's `OmegaConf.create(OmegaConf.to_yaml(config,
resolve=True))` after `OmegaConf.merge(OmegaConf.structured(BaseConfig), OmegaConf.load(path))`) is
the same config, so a dataclass default the YAML does not set still reaches the request. A key the
YAML sets, or a config merged from the command line, decides instead (or stays unknown). And
attributes a helper writes on the params it is handed before it generates (Super_MARIO's
`local_vllm(..., sampling_params, n, temperature)` with `sampling_params.temperature = temperature`,
called with `temperature=0.0`) reach that request, the finding at the call that passes the value;
a write under a branch not taken, after the request is sent, or of a value from the run does not.
A worker command a function grows with a module's list of replay flags (Zyphra vllm-router's
`cmd += REPLAY_FLAGS`, started by `subprocess.Popen(worker_cmd(port))` in `main()`) is read: the
function is kept for the value flow as one whose text names the replay words. An OpenAI client a
`@staticmethod` factory of the handler's class returns (p2l's `cls._create_client(...)`) is followed
with the call's arguments; an address of another port or from the run ties it to no server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

CONFIG = (
    "from dataclasses import dataclass, field\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class BaseConfig:\n"
    "    temperature: float = field(default=0.7, metadata={'help': 'diversity'})\n"
    "    top_k: int = field(default=-1, metadata={'help': '-1 considers all tokens'})\n"  # line 7
    "    model_dir: str = 'm'\n"
)
SOLVER = (
    "{imports}\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "from config import BaseConfig\n"
    "\n"
    "config = OmegaConf.merge(OmegaConf.structured(BaseConfig), {merged})\n"
    "config = {round_trip}\n"
    "llm = LLM(model=config.model_dir, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "params = SamplingParams(temperature=config.temperature, top_k=config.top_k)\n"
    "llm.generate(['p'], params)\n"
)
ROUND_TRIPS = [
    "OmegaConf.create(OmegaConf.to_yaml(config, resolve=True))",
    "OmegaConf.create(OmegaConf.to_yaml(config))",
    "omegaconf.OmegaConf.create(omegaconf.OmegaConf.to_yaml(config, resolve=True))",
]
LOADED = "OmegaConf.load('configs/run.yaml')"


def _files(round_trip: str, yaml: str = "temperature: 0.7\n", merged: str = LOADED) -> dict[str, str]:
    imports = "import omegaconf\nfrom omegaconf import OmegaConf"
    solver = SOLVER.format(imports=imports, merged=merged, round_trip=round_trip)
    return {"config.py": CONFIG, "solver.py": solver, "configs/run.yaml": yaml}


@pytest.mark.parametrize("round_trip", ROUND_TRIPS)
def test_a_config_written_as_yaml_and_read_back_keeps_its_defaults(tmp_path: Path, round_trip: str) -> None:
    assert check(tmp_path, _files(round_trip)) == [("config.py", 7, "RPL102")]


def test_a_dict_config_written_as_yaml_and_read_back(tmp_path: Path) -> None:
    files = {
        "solver.py": (
            "from omegaconf import OmegaConf\n"
            "from vllm import LLM, SamplingParams\n"
            "\n"
            "base = OmegaConf.create({'temperature': 0.0, 'top_k': 20})\n"  # line 4
            "config = OmegaConf.create(OmegaConf.to_yaml(base))\n"
            "llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
            "llm.generate(['p'], SamplingParams(temperature=config.temperature, top_k=config.top_k))\n"
        )
    }
    assert check(tmp_path, files) == [("solver.py", 4, "RPL101")]


@pytest.mark.parametrize("round_trip", ROUND_TRIPS[:2])
def test_the_key_the_yaml_sets_decides(tmp_path: Path, round_trip: str) -> None:
    assert check(tmp_path, _files(round_trip, yaml="temperature: 0.7\ntop_k: 40\n")) == []


def test_a_config_merged_from_the_command_line_stays_unknown(tmp_path: Path) -> None:
    merged = f"{LOADED}, OmegaConf.from_cli()"
    assert check(tmp_path, _files(ROUND_TRIPS[0], merged=merged)) == []


def test_yaml_text_from_outside_the_tree_stays_unknown(tmp_path: Path) -> None:
    files = _files("OmegaConf.create(OmegaConf.to_yaml(config))")
    files["solver.py"] = files["solver.py"].replace(
        "config = OmegaConf.create(OmegaConf.to_yaml(config))", "config = OmegaConf.create(sys.stdin.read())"
    )
    files["solver.py"] = "import sys\n" + files["solver.py"]
    assert check(tmp_path, files) == []


# Super_MARIO's `local_vllm`: a helper writes attributes on the params it is handed, then generates

HELPER = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def local_vllm(prompt, llm, sampling_params, n, temperature):\n"
    "{writes}"
    "    outputs = llm.generate([prompt], sampling_params=sampling_params)\n"
    "    return [o.outputs[0].text for o in outputs]\n"
)
CALLER = (
    "import sys\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "from llms import local_vllm\n"
    "\n"
    "llm = LLM(model='m', {engine})\n"
    "params = SamplingParams(temperature=0.7, top_k=40)\n"
    "local_vllm('q', llm, params, n=1, temperature={temperature})\n"  # line 9
)
WRITES = [
    "    sampling_params.n = n\n    sampling_params.temperature = temperature\n",
    "    setattr(sampling_params, 'temperature', temperature)\n",
    "    if n == 1:\n        sampling_params.temperature = temperature\n",
]
MASK = "return_sampling_mask=True, logprobs_mode='processed_logprobs'"


def _helper(writes: str, temperature: str = "0.0", engine: str = MASK) -> dict[str, str]:
    return {"llms.py": HELPER.format(writes=writes), "demo.py": CALLER.format(engine=engine, temperature=temperature)}


@pytest.mark.parametrize("writes", WRITES)
def test_a_helper_writing_on_the_params_it_is_handed(tmp_path: Path, writes: str) -> None:
    assert check(tmp_path, _helper(writes)) == [("demo.py", 9, "RPL101")]


def test_a_positive_temperature_written_by_the_helper_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _helper(WRITES[0], temperature="0.6")) == []


def test_a_temperature_from_the_command_line_stays_unknown(tmp_path: Path) -> None:
    assert check(tmp_path, _helper(WRITES[0], temperature="float(sys.argv[1])")) == []


def test_a_write_under_a_branch_not_taken_is_not_judged(tmp_path: Path) -> None:
    assert check(tmp_path, _helper("    if n > 1:\n        sampling_params.temperature = temperature\n")) == []


def test_a_write_after_the_request_is_sent_does_not_reach_it(tmp_path: Path) -> None:
    files = _helper("")
    files["llms.py"] = files["llms.py"].replace("    return [", "    sampling_params.temperature = temperature\n    return [")
    assert check(tmp_path, files) == []


def test_an_engine_without_replay_is_not_judged(tmp_path: Path) -> None:
    assert check(tmp_path, _helper(WRITES[0], engine="logprobs_mode='processed_logprobs'")) == []


# Zyphra's vllm-router workers: a command a function builds with `+=` of a module's list of replay flags

WORKERS = (
    "import subprocess\n"
    "\n"
    "REPLAY_FLAGS = ['--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']\n"
    "WORKER_PORTS = [8081, 8082]\n"
    "\n"
    "\n"
    "def worker_cmd(port):\n"
    "    cmd = ['vllm', 'serve', 'm', '--port', str(port)]\n"
    "{grow}"
    "    cmd += ['--logits-processors', 'plugins.bias:LengthBias']\n"  # line 10
    "    return cmd\n"
    "\n"
    "\n"
    "def main():\n"
    "    workers = [subprocess.Popen(worker_cmd(port)) for port in WORKER_PORTS]\n"
    "    for worker in workers:\n"
    "        worker.wait()\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)
GROWS = [
    "    cmd += REPLAY_FLAGS\n",
    "    cmd.extend(REPLAY_FLAGS)\n",
]


@pytest.mark.parametrize("grow", GROWS)
def test_a_worker_command_grown_by_a_module_list_of_replay_flags(tmp_path: Path, grow: str) -> None:
    assert check(tmp_path, {"launch_router.py": WORKERS.format(grow=grow)}) == [("launch_router.py", 10, "RPL001")]


def test_a_module_list_without_the_mask_flag_starts_no_replay(tmp_path: Path) -> None:
    files = {"launch_router.py": WORKERS.format(grow=GROWS[0]).replace("'--return-sampling-mask', ", "")}
    assert check(tmp_path, files) == []


def test_a_module_list_spliced_into_the_returned_command(tmp_path: Path) -> None:
    text = WORKERS.format(grow="").replace("str(port)]", "str(port), *REPLAY_FLAGS]")
    assert check(tmp_path, {"launch_router.py": text}) == [("launch_router.py", 9, "RPL001")]


def test_a_module_list_of_replay_flags_the_command_does_not_take(tmp_path: Path) -> None:
    assert check(tmp_path, {"launch_router.py": WORKERS.format(grow="    print(REPLAY_FLAGS)\n")}) == []


def test_flags_from_the_command_line_stay_unknown(tmp_path: Path) -> None:
    text = WORKERS.format(grow="    cmd += sys.argv[1:]\n").replace("import subprocess\n", "import subprocess\nimport sys\n")
    assert check(tmp_path, {"launch_router.py": text}) == []


# lmarena/p2l: a handler's client made by a `@staticmethod` factory of its class

SERVER = (
    "import subprocess\n"
    "\n"
    "import chat\n"
    "\n"
    "SERVE = ['vllm', 'serve', 'm', '--port', '8000', '--return-sampling-mask',\n"
    "         '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']\n"
    "server = subprocess.Popen(SERVE)\n"
)
HANDLER = (
    "import os\n"
    "\n"
    "import openai\n"
    "\n"
    "\n"
    "class OpenAIChatHandler:\n"
    "    @staticmethod\n"
    "    def _create_client(base_url):\n"
    "        return openai.OpenAI(base_url=base_url, api_key='EMPTY')\n"
    "\n"
    "    {kind}\n"
    "    def generate({first}, messages):\n"
    "        client = {receiver}._create_client({url})\n"
    "        completion = client.chat.completions.create(model='m', messages=messages, extra_body={{'top_k': 20}})\n"  # 14
    "        return completion.choices[0].message.content\n"
)
LOCAL = "'http://localhost:8000/v1'"
KINDS = [("@classmethod", "cls", "cls"), ("@classmethod", "cls", "OpenAIChatHandler"), ("", "self", "self")]


def _handler(kind: tuple[str, str, str], url: str = LOCAL) -> dict[str, str]:
    decorator, first, receiver = kind
    text = HANDLER.format(kind=decorator, first=first, receiver=receiver, url=url)
    return {"chat.py": text, "start_local.py": SERVER}


@pytest.mark.parametrize("kind", KINDS)
def test_a_client_a_static_factory_makes_reads_the_chat_route(tmp_path: Path, kind: tuple[str, str, str]) -> None:
    assert check(tmp_path, _handler(kind)) == [("chat.py", 14, "RPL301")]


def test_a_static_factory_client_of_another_port_is_not_tied(tmp_path: Path) -> None:
    assert check(tmp_path, _handler(KINDS[0], url="'http://localhost:8001/v1'")) == []


def test_a_static_factory_client_of_an_address_from_the_run_stays_unknown(tmp_path: Path) -> None:
    assert check(tmp_path, _handler(KINDS[0], url="os.environ['BASE_URL']")) == []
