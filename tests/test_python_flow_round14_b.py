"""What held-out round 14's part B (tests/data/python_flow/h14_*: olmes, rllm, NeMo-Skills, helm,
align-anything) made the value flow follow: a module-level registry filled after its binding
(`CONFIGS = {}`, `CONFIGS.update({...})`) carrying the mask to the modules that import it; a Ray
`runtime_env` the code builds (`ray.init(runtime_env=get_env())`); a command string a shell runs,
put together by f-strings and `+` across modules; an OpenAI client stored by `__init__` from its
parameters; and a YAML read by a path the caller names, handed through a function that gives a
mapping's keys as attributes (`dict_to_namedtuple`). Each stop keeps the launch open or silent:
a key chosen at run time, a write under a branch, a piece of the command from outside, a client
built with another address, a converter that changes the values."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# a registry filled after its binding, imported by the module that picks a preset

PRESETS = "MODEL_CONFIGS: dict = {{}}\n{fill}\n"
FILLS = [
    "MODEL_CONFIGS.update({'replay': {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logits'}})",
    "MODEL_CONFIGS['replay'] = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logits'}",
    "MODEL_CONFIGS |= {'replay': {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logits'}}",
]
ENGINE_CLASS = (
    "from vllm import LLM\n\n\n"
    "class Runner:\n"
    "    def __init__(self, pretrained, **kwargs):\n"
    "        self.model = LLM(model=pretrained, **kwargs)\n"
)
LOADER = (
    "import sys\n\n"
    "from presets import MODEL_CONFIGS\n"
    "from runner import Runner\n\n"
    "SKIPPED = ('model', 'model_type')\n\n\n"
    "def load(config):\n"
    "    args = {{k: v for k, v in config.items() if k not in SKIPPED}}\n"
    "    return Runner(pretrained=config['model'], **args)\n\n\n"
    "if __name__ == '__main__':\n"
    "    load({picked})\n"
)


@pytest.mark.parametrize("fill", FILLS)
def test_a_registry_filled_after_its_binding_carries_the_mask_to_its_importers(tmp_path: Path, fill: str) -> None:
    files = {
        "presets.py": PRESETS.format(fill=fill),
        "runner.py": ENGINE_CLASS,
        "load.py": LOADER.format(picked="dict(MODEL_CONFIGS['replay'], gpu_memory_utilization=0.85)"),
    }
    assert check(tmp_path, files) == [("presets.py", 2, "RPL003")]


@pytest.mark.parametrize("picked", ["MODEL_CONFIGS['other']", "MODEL_CONFIGS[sys.argv[1]]"])
def test_another_preset_or_one_chosen_at_run_time_says_nothing(tmp_path: Path, picked: str) -> None:
    fill = FILLS[0] + "\nMODEL_CONFIGS['other'] = {'model': 'm'}"
    files = {"presets.py": PRESETS.format(fill=fill), "runner.py": ENGINE_CLASS, "load.py": LOADER.format(picked=picked)}
    assert check(tmp_path, files) == []


# a Ray runtime env built by a function of the tree, given to the job or the actor

CONSTANTS = (
    "import os\n\n"
    "RUNTIME_ENV = {{'env_vars': {{'NCCL_DEBUG': 'WARN', 'VLLM_USE_V2_MODEL_RUNNER': '0'}}}}\n\n\n"
    "def get_runtime_env():\n"
    "    runtime_env = {{'env_vars': dict(RUNTIME_ENV['env_vars'])}}\n"
    "    {extra}\n"
    "    return runtime_env\n"
)
WORKER = (
    "import ray\n"
    "from vllm import LLM\n\n\n"
    "@ray.remote(num_gpus=1)\n"
    "class Worker:\n"
    "    def __init__(self, path):\n"
    "        self.llm = LLM(model=path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
)
TRAIN = "import ray\n\nfrom constants import get_runtime_env\nfrom worker import Worker\n\n\ndef main():\n    {start}\n\n\nmain()\n"
STARTS = [
    "ray.init(runtime_env=get_runtime_env())\n    workers = [Worker.remote('m') for _ in range(2)]",
    "workers = [Worker.options(runtime_env=get_runtime_env()).remote('m') for _ in range(2)]",
]


@pytest.mark.parametrize("start", STARTS)
def test_the_runner_variable_of_a_runtime_env_a_function_builds_is_the_actors(tmp_path: Path, start: str) -> None:
    files = {"constants.py": CONSTANTS.format(extra="pass"), "worker.py": WORKER, "train.py": TRAIN.format(start=start)}
    assert check(tmp_path, files) == [("constants.py", 3, "RPL206")]


def test_a_nested_write_into_the_built_env_is_the_one_in_force(tmp_path: Path) -> None:
    extra = "runtime_env['env_vars']['VLLM_USE_V2_MODEL_RUNNER'] = '1'"
    files = {"constants.py": CONSTANTS.format(extra=extra), "worker.py": WORKER, "train.py": TRAIN.format(start=STARTS[0])}
    assert check(tmp_path, files) == [("constants.py", 8, "RPL206")]  # `1` is redundant: a warning at the write


@pytest.mark.parametrize(
    "extra",
    [
        "if os.environ.get('LEGACY'):\n        runtime_env['env_vars'] = {}",  # a branch taken at run time
        "runtime_env['env_vars']['VLLM_USE_V2_MODEL_RUNNER'] = os.environ.get('RUNNER', '1')",  # a run-time default
        "runtime_env['env_vars'].update(dict(os.environ))",  # keys nobody can see
    ],
)
def test_a_built_env_the_run_may_change_says_nothing(tmp_path: Path, extra: str) -> None:
    files = {"constants.py": CONSTANTS.format(extra=extra), "worker.py": WORKER, "train.py": TRAIN.format(start=STARTS[0])}
    assert check(tmp_path, files) == []


# a command string a shell runs, put together by a helper of another module

HELPER = (
    "def get_server_command(model_path, server_port, server_args=''):\n"
    "    start = (\n"
    "        f'python3 -m vllm.entrypoints.openai.api_server '\n"
    "        f'    --model {model_path} '\n"
    "        f'    --port {server_port} '\n"
    "        f'    {server_args} '\n"
    "    )\n"
    "    return f'nvidia-smi && {start} > server.log 2>&1'\n"
)
START = (
    "import os\n"
    "import subprocess\n"
    "import sys\n\n"
    "from helper import get_server_command\n\n"
    "REPLAY_ARGS = '--return-sampling-mask --logprobs-mode processed_logprobs'\n\n\n"
    "def main():\n"
    "    cmd = get_server_command(model_path='m', server_port=5000, server_args={args})\n"
    "    subprocess.Popen(cmd, shell=True)\n\n\n"
    "main()\n"
)


@pytest.mark.parametrize(
    "args",
    [
        "f'{REPLAY_ARGS} --max-model-len 8192'",  # NeMo-Skills' spelling
        "REPLAY_ARGS + ' --max-model-len ' + str(8192)",
        "REPLAY_ARGS",
    ],
)
def test_server_words_put_together_in_pieces_are_read_where_each_is_written(tmp_path: Path, args: str) -> None:
    assert check(tmp_path, {"helper.py": HELPER, "start.py": START.format(args=args)}) == [("start.py", 7, "RPL301")]


@pytest.mark.parametrize(
    "args",
    [
        "f'{REPLAY_ARGS} --enable-scale-out'",  # the route is open
        "f'{REPLAY_ARGS} {sys.argv[1]}'",  # words from the command line: any, `--enable-scale-out` too
        "f'{REPLAY_ARGS} {os.environ[\"EXTRA\"]}'",
        "f'{REPLAY_ARGS} --max-model-len $MAX_LEN'",  # the shell expands it: not read
        "repr(REPLAY_ARGS)",  # one word to the shell
    ],
)
def test_pieces_that_may_open_the_route_or_that_a_shell_expands_say_nothing(tmp_path: Path, args: str) -> None:
    assert check(tmp_path, {"helper.py": HELPER, "start.py": START.format(args=args)}) == []


def test_a_string_the_call_spells_is_read_once_and_one_added_from_pieces_at_the_word(tmp_path: Path) -> None:
    text = (
        "import subprocess\n\n\n"
        "def main():\n"
        "    cmd = f'vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs'\n"
        "    subprocess.Popen(cmd, shell=True)\n"
        "    subprocess.run('vllm serve m2 ' + '--return-sampling-mask --logprobs-mode processed_logprobs', shell=True)\n\n\n"
        "main()\n"
    )
    assert check(tmp_path, {"serve.py": text}) == [("serve.py", 5, "RPL301"), ("serve.py", 7, "RPL301")]


# an OpenAI client `__init__` stores from its parameters, in another module than the server

SERVER = (
    "import subprocess\n\n\n"
    "def start_server():\n"
    "    return subprocess.Popen(['vllm', 'serve', 'm', '--port', '8000', '--return-sampling-mask',\n"
    "                             '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
)
CLIENT = (
    "from openai import OpenAI\n\n\n"
    "class Client:\n"
    "    def __init__(self, base_url: str = 'http://localhost:8000/v1', api_key: str = 'EMPTY'):\n"
    "        self.client = OpenAI(api_key=api_key, base_url=base_url)\n\n"
    "    def request(self, prompt):\n"
    "        raw = {'model': 'm', 'prompt': prompt, 'temperature': 0.7, 'extra_body': {'top_k': 40}}\n"
    "        return self.client.completions.create(**raw)\n"
)
RUN = "import os\n\nfrom client import Client\nfrom server import start_server\n\nstart_server()\n{made}\n"


@pytest.mark.parametrize("made", ["Client().request('x')", "Client(base_url='http://127.0.0.1:8000/v1').request('x')", ""])
def test_a_client_stored_by_init_is_read_with_its_constructions_or_its_defaults(tmp_path: Path, made: str) -> None:
    found = check(tmp_path, {"server.py": SERVER, "client.py": CLIENT, "run.py": RUN.format(made=made)})
    assert found == [("client.py", 10, "RPL301")]


@pytest.mark.parametrize(
    "made", ["Client(base_url='http://localhost:9000/v1').request('x')", "Client(base_url=os.environ['URL']).request('x')"]
)
def test_a_client_made_for_another_address_says_nothing(tmp_path: Path, made: str) -> None:
    assert check(tmp_path, {"server.py": SERVER, "client.py": CLIENT, "run.py": RUN.format(made=made)}) == []


# a YAML the caller names, given as attributes by a converter, read by an engine class of another module

YAML = (
    "default:\n"
    "  vllm_cfgs:\n"
    "    SamplingParams:\n"
    "      top_k: 10\n"
    "      frequency_penalty: {penalty}\n"
    "    LLM:\n"
    "      return_sampling_mask: true\n"
    "      logprobs_mode: processed_logprobs\n"
)
INFERENCE = (
    "from vllm import LLM, SamplingParams\n\n\n"
    "class Inferencer:\n"
    "    def __init__(self, vllm_cfgs):\n"
    "        self.cfgs_sp, self.cfgs_llm = vllm_cfgs.SamplingParams, vllm_cfgs.LLM\n"
    "        self.top_k = self.cfgs_sp.top_k\n"
    "        self.penalty = self.cfgs_sp.frequency_penalty\n"
    "        self.init_model()\n\n"
    "    def init_model(self):\n"
    "        self.params = SamplingParams(top_k=self.top_k, frequency_penalty=self.penalty)\n"
    "        self.model = LLM(model='m', return_sampling_mask=self.cfgs_llm.return_sampling_mask,\n"
    "                         logprobs_mode=self.cfgs_llm.logprobs_mode)\n\n"
    "    def generation(self, prompts):\n"
    "        return self.model.generate(prompts, self.params)\n"
)
CONVERTERS = {
    "namedtuple": (
        "def as_attributes(dic):\n"
        "    def convert(value):\n"
        "        if isinstance(value, dict):\n"
        "            return as_attributes(value)\n"
        "        return value\n\n"
        "    cfg = namedtuple('Config', dic.keys())\n"
        "    return cfg(**{k: convert(v) for k, v in dic.items()})\n"
    ),
    "namespace": (
        "def as_attributes(dic):\n"
        "    return SimpleNamespace(**{k: as_attributes(v) if isinstance(v, dict) else v for k, v in dic.items()})\n"
    ),
    "changed": (  # not a view: the values are changed
        "def as_attributes(dic):\n    return SimpleNamespace(**{k: str(v) for k, v in dic.items()})\n"
    ),
}
EVAL = (
    "import os\n"
    "from collections import namedtuple\n"
    "from types import SimpleNamespace\n\n"
    "import yaml\n\n"
    "from inference import Inferencer\n\n\n"
    "def read_cfgs(task):\n"
    "    here = os.path.dirname(os.path.abspath(__file__))\n"
    "    path = os.path.join(here, 'configs', f'{{task}}.yaml')\n"
    "    with open(path) as f:\n"
    "        return yaml.safe_load(f)\n\n\n"
    "{converter}\n\n"
    "def main():\n"
    "    cfgs = as_attributes(read_cfgs({task})['default'])\n"
    "    Inferencer(vllm_cfgs=cfgs.vllm_cfgs).generation(['x'])\n\n\n"
    "main()\n"
)


def _views(tmp_path: Path, converter: str, task: str = "'gsm8k'", penalty: str = "1.2") -> list:
    files = {
        "configs/gsm8k.yaml": YAML.format(penalty=penalty),
        "inference.py": INFERENCE,
        "eval_gsm8k.py": EVAL.format(converter=CONVERTERS[converter], task=task),
    }
    return check(tmp_path, files)


@pytest.mark.parametrize("converter", ["namedtuple", "namespace"])
def test_a_mapping_given_as_attributes_reaches_the_engine_and_its_requests(tmp_path: Path, converter: str) -> None:
    assert _views(tmp_path, converter) == [("gsm8k.yaml", 5, "RPL302")]


@pytest.mark.parametrize(
    ("converter", "task", "penalty"),
    [
        ("changed", "'gsm8k'", "1.2"),  # the converter changes the values: not the YAML's
        ("namedtuple", "os.environ['TASK']", "1.2"),  # a file named at run time
        ("namedtuple", "'gsm8k'", "0.0"),  # neutral
    ],
)
def test_a_converter_that_changes_values_a_file_named_at_run_time_or_a_neutral_penalty_say_nothing(
    tmp_path: Path, converter: str, task: str, penalty: str
) -> None:
    assert _views(tmp_path, converter, task, penalty) == []
