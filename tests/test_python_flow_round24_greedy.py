"""What held-out rounds 24 and 25 made the value flow follow for requests made greedy by a flag or
a default in the code. A branch's test is read where Python reads it, before the branch runs
(FlashRAG's `if "do_sample" in generation_params:` then `generation_params.pop("do_sample")` in
the branch: the key is there for the test). An object of a plain class that defines `__getitem__`
(FlashRAG's `Config`: `return self.final_config.get(key)`) is read through it, with the writes
`__init__` makes into the dict after setting it (`self.final_config.update(yaml.safe_load(f))`).
A flag from outside the tree, a branch not taken, or a dict another method writes into stays
open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ENGINE = "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"

# a `do_sample` flag popped under a membership test of the same dict

POPPED = [
    # FlashRAG's generator.py
    (
        "    if 'do_sample' in generation_params:\n"
        "        do_sample_flag = generation_params.pop('do_sample')\n"
        "        if not do_sample_flag:\n"
        "            generation_params['temperature'] = 0\n"
    ),
    (
        "    if 'do_sample' in generation_params:\n"
        "        if not generation_params.pop('do_sample'):\n"
        "            generation_params['temperature'] = 0\n"
        "            pass\n"
    ),
    (
        "    if 'do_sample' in generation_params:\n"
        "        flag = generation_params['do_sample']\n"
        "        del generation_params['do_sample']\n"
        "        if flag is False: generation_params['temperature'] = 0\n"
    ),
]


def _generator(branch: str, given: str) -> str:
    return (
        "from copy import deepcopy\n"
        "from vllm import LLM, SamplingParams\n"
        "def generate(params, **more):\n"
        "    generation_params = deepcopy(params)\n"
        "    generation_params.update(more)\n"
        f"{branch}"
        "    generation_params['seed'] = 2024\n"
        f"    {ENGINE}"
        "    return llm.generate(['p'], SamplingParams(**generation_params))\n"
        f"generate({given})\n"
    )


@pytest.mark.parametrize("branch", POPPED)
def test_a_flag_popped_under_its_membership_test_decides_the_branch(tmp_path: Path, branch: str) -> None:
    text = _generator(branch, "{'do_sample': False, 'top_k': 20}")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "['temperature'] = 0" in row)
    assert check(tmp_path, {"gen.py": text}) == [("gen.py", line, "RPL101")]


@pytest.mark.parametrize(
    "given",
    [
        "{'do_sample': True, 'temperature': 0.7, 'top_k': 20}",  # sampling: the branch is not taken
        "{'temperature': 0.7, 'top_k': 20}",  # no flag: no test holds
        "json.loads(sys.argv[1])",  # the run's
        "{'do_sample': False, 'top_k': 20}, **json.loads(sys.argv[1])",  # the run may set do_sample again
    ],
)
def test_a_flag_that_samples_or_comes_from_the_run_stays_silent(tmp_path: Path, given: str) -> None:
    generator = "import json, sys\n" + _generator(POPPED[0], given)
    assert check(tmp_path, {"gen.py": generator}) == []


# a config object read through its class's `__getitem__`

CONFIG = (
    "import os\n"
    "import yaml\n"
    "class Config:\n"
    "    def __init__(self, config_file_path=None, config_dict=None):\n"
    "        self.final_config = {'device': 'cuda', 'seed': 2024}\n"
    "        if config_file_path is not None:\n"
    "            with open(config_file_path) as f:\n"
    "                self.final_config.update(yaml.safe_load(f))\n"
    "        self.final_config.update(config_dict or {})\n"
    "{more}"
    "    def __getitem__(self, key):\n"
    "        return {getter}\n"
)
PIPELINE = (
    "import os\n"
    "from vllm import LLM, SamplingParams\n"
    "from config import Config\n"
    "config = Config(os.path.join(os.path.dirname(__file__), 'my_config.yaml'), config_dict={given})\n"
    f"{ENGINE}"
    "llm.generate(['p'], SamplingParams(**config['generation_params']))\n"
)
YAML = "generator_model: m\ngeneration_params:\n  temperature: 0\n  top_k: 20\n"  # line 3


def _config_tree(getter: str = "self.final_config.get(key)", given: str = "{'data_dir': 'd/'}", more: str = "") -> dict[str, str]:
    return {
        "config.py": CONFIG.replace("{getter}", getter).replace("{more}", more),
        "run.py": PIPELINE.replace("{given}", given),
        "my_config.yaml": YAML,
    }


@pytest.mark.parametrize("getter", ["self.final_config.get(key)", "self.final_config[key]", "self.final_config.get(key, None)"])
def test_a_config_object_is_read_through_its_getitem(tmp_path: Path, getter: str) -> None:
    assert check(tmp_path, _config_tree(getter)) == [("my_config.yaml", 3, "RPL101")]


def test_a_key_the_caller_overrides_decides(tmp_path: Path) -> None:
    given = "{'generation_params': {'temperature': 0.0, 'top_k': 40}}"  # line 4
    assert check(tmp_path, _config_tree(given=given)) == [("run.py", 4, "RPL101")]


@pytest.mark.parametrize(
    ("given", "more"),
    [
        ("{'generation_params': {'temperature': 0.7, 'top_k': 40}}", ""),  # the caller's sampling wins
        ("json.loads(sys.argv[1])", ""),  # the run may set it
        ("{}", "    def set(self, key, value):\n        self.final_config[key] = value\n"),  # written by another method
    ],
)
def test_a_config_object_open_to_the_run_or_sampling_stays_silent(tmp_path: Path, given: str, more: str) -> None:
    files = _config_tree(given=given, more=more)
    files["run.py"] = "import json, sys\n" + files["run.py"]
    assert check(tmp_path, files) == []


def test_a_getitem_that_computes_its_key_stays_open(tmp_path: Path) -> None:
    getter = "self.final_config.get(os.environ['PREFIX'] + key)"  # a key of the run
    assert check(tmp_path, _config_tree(getter)) == []


def test_a_nested_dict_merged_over_by_the_run_is_not_known(tmp_path: Path) -> None:
    files = {
        "run.py": (
            "import json, sys\n"
            "from vllm import LLM, SamplingParams\n"
            "cfg = {'gp': {'temperature': 0, 'top_k': 20}}\n"
            "cfg.update(json.loads(sys.argv[1]))\n"  # may replace `gp` whole
            f"{ENGINE}"
            "llm.generate(['p'], SamplingParams(**cfg['gp']))\n"
            "llm.generate(['p'], SamplingParams(**cfg.get('gp')))\n"
        )
    }
    assert check(tmp_path, files) == []


# HELMET: the engine class chosen under a flag, its sampling flag from argparse defaults that a
# YAML file named by `--config` may change

LOCAL = (
    "class LocalModel:\n"
    "    def __init__(self, model_name, temperature=0.9, do_sample=True, **kwargs):\n"
    "        self.temperature = temperature\n"
    "        self.do_sample = do_sample\n"
)
VLLM_MODEL = (
    "from vllm import LLM, SamplingParams\n"
    "from local import LocalModel\n"
    "class VLLMModel(LocalModel):\n"
    "    def __init__(self, model_name, **kwargs):\n"
    "        super().__init__(model_name, **kwargs)\n"
    "        self.model = LLM(model_name, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    def generate(self, prompts):\n"
    "        params = SamplingParams(\n"
    "            temperature=self.temperature if self.do_sample else 0.0,\n"  # line 9
    "            top_k=20,\n"
    "        )\n"
    "        return self.model.generate(prompts, params)\n"
)
ARGUMENTS = (
    "import argparse\n"
    "import yaml\n"
    "def parse_arguments():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--config', type=str, {config})\n"
    "    parser.add_argument('--use_vllm', action='store_true')\n"
    "    parser.add_argument('--do_sample', type=bool, default=False)\n"  # line 7
    "    parser.add_argument('--temperature', type=float, default=0.6)\n"
    "    args, _ = parser.parse_known_args()\n"
    "    with open(args.config) as f:\n"
    "        parser.set_defaults(**yaml.safe_load(f))\n"
    "    return parser.parse_args()\n"
)
EVAL = (
    "from arguments import parse_arguments\n"
    "from vllm_model import VLLMModel\n"
    "def load(args):\n"
    "    kwargs = {{}}\n"
    "{choice}"
    "    return model_cls('m', temperature=args.temperature, do_sample=args.do_sample, **kwargs)\n"
    "def main():\n"
    "    args = parse_arguments()\n"
    "    print(load(args).generate(['p']))\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)
CHOICES = [
    "    if args.use_vllm:\n        model_cls = VLLMModel\n        kwargs['seed'] = 42\n",  # HELMET's load_LLM
    "    if args.use_vllm:\n        model_cls = VLLMModel\n    elif args.use_hf:\n        raise ValueError('hf')\n",
    "    model_cls = VLLMModel\n",
]


def _helmet(choice: str = CHOICES[0], yaml: str = "use_vllm: true\n", config: str = "default='configs/run.yaml'") -> dict[str, str]:
    return {
        "local.py": LOCAL,
        "vllm_model.py": VLLM_MODEL,
        "arguments.py": ARGUMENTS.replace("{config}", config),
        "eval.py": EVAL.replace("{choice}", choice).replace("{{}}", "{}"),
        "configs/run.yaml": yaml,
    }


@pytest.mark.parametrize("choice", CHOICES)
def test_a_class_chosen_under_a_flag_is_the_one_made_and_its_default_decides(tmp_path: Path, choice: str) -> None:
    assert check(tmp_path, _helmet(choice)) == [("vllm_model.py", 9, "RPL101")]


@pytest.mark.parametrize(
    ("yaml", "config"),
    [
        ("use_vllm: true\ndo_sample: true\n", "default='configs/run.yaml'"),  # the YAML's default wins
        ("use_vllm: false\n", "default='configs/run.yaml'"),  # the class is never chosen
        ("do_sample: true\n", "default='configs/run.yaml'"),  # `--use_vllm` off: `model_cls` unbound, no request
        ("use_vllm: true\n", "required=True"),  # a YAML named on the command line: any default may change
    ],
)
def test_a_yaml_of_defaults_that_samples_or_is_unknown_stays_silent(tmp_path: Path, yaml: str, config: str) -> None:
    assert check(tmp_path, _helmet(yaml=yaml, config=config)) == []


def test_two_classes_on_two_branches_stay_as_they_were(tmp_path: Path) -> None:
    choice = "    if args.use_vllm:\n        model_cls = VLLMModel\n    else:\n        model_cls = dict\n"
    assert check(tmp_path, _helmet(choice, yaml="{}\n", config="default=None")) == []


# selfcodealign: `typing.cast` of the dataclass HfArgumentParser gives

TEXT2CODE = (
    "{imports}\n"
    "from dataclasses import dataclass, field\n"
    "from transformers import HfArgumentParser\n"
    "from vllm import LLM, SamplingParams\n"
    "@dataclass(frozen=True)\n"
    "class Args:\n"
    "    model_key: str\n"
    "    temperature: float = field({temperature})\n"  # line 8
    "def main():\n"
    "    args = {cast}(Args, HfArgumentParser(Args).parse_args_into_dataclasses()[0])\n"
    "    engine = LLM(model=args.model_key, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    engine.generate(['p'], SamplingParams(temperature=args.temperature, top_k=40))\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def _text2code(imports: str, cast: str, temperature: str = "default=0.0") -> dict[str, str]:
    text = TEXT2CODE.replace("{imports}", imports).replace("{cast}", cast).replace("{temperature}", temperature)
    return {"text2code.py": text.replace("(Args, HfArgumentParser", "('Args', HfArgumentParser") if "quoted" in imports else text}


@pytest.mark.parametrize(
    ("imports", "cast"),
    [
        ("from typing import Literal, cast", "cast"),  # selfcodealign's
        ("import typing  # quoted", "typing.cast"),
        ("import typing as t", "t.cast"),
    ],
)
def test_a_cast_is_the_value_it_casts(tmp_path: Path, imports: str, cast: str) -> None:
    assert check(tmp_path, _text2code(imports, cast)) == [("text2code.py", 8, "RPL101")]


@pytest.mark.parametrize(
    ("imports", "cast", "temperature"),
    [
        ("from typing import cast", "cast", "default=0.7"),
        ("from typing import cast", "cast", "metadata={'help': 'no default: the command line gives it'}"),
        ("from mylib import cast", "cast", "default=0.0"),  # not typing's: may return anything
    ],
)
def test_a_cast_of_a_sampling_or_required_field_stays_silent(tmp_path: Path, imports: str, cast: str, temperature: str) -> None:
    assert check(tmp_path, _text2code(imports, cast, temperature)) == []


# KernelBench: a closure a factory returns, called in another module, its free names the
# factory's arguments there; the caller's keywords filtered by value (`v != "None"`)

SERVE = "vllm serve m --port 10210 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
UTILS = (
    "import requests\n"
    "PRESETS = {'local': {'temperature': 0.8, 'server_port': 10210, 'max_tokens': 8192}}\n"
    "def query_server(prompt, temperature=0.0, top_k=50, max_tokens=128, server_port=30000, server_type='sglang'):\n"
    "    if server_type == 'local':\n"
    "        payload = {'token_ids': [1], 'sampling_params': {'temperature': temperature, 'top_k': top_k, 'max_tokens': max_tokens}}\n"
    "        return requests.post(f'http://localhost:{server_port}/inference/v1/generate', json=payload).json()\n"
    "    raise NotImplementedError(server_type)\n"
    "def create_server(server_type=None, greedy_sample=False, **kwargs):\n"
    "    def _query(prompt):\n"
    "        server_args = PRESETS[server_type].copy()\n"
    "        if kwargs:\n"
    "            server_args.update({k: v for k, v in kwargs.items() if v is not None and v != 'None'})\n"
    "        if greedy_sample:\n"
    "            server_args['temperature'] = 0.0\n"  # line 14
    "        return query_server(prompt, server_type=server_type, **server_args)\n"
    "    return _query\n"
)
CALLER = "{imports}\nfrom utils import create_server\n{body}"
BODIES = [
    # generate_and_eval_single_sample.py's
    "def main():\n    server = create_server(server_type='local', greedy_sample=True, max_tokens=4096)\n    print(server('p'))\nmain()\n",
    "server = create_server(server_type='local', greedy_sample=True, max_tokens=None)\nserver('p')\n",
    "server = create_server('local', True, max_tokens='None', top_k=40)\nserver('p')\n",
]


def _kernelbench(body: str, imports: str = "", serve: str = SERVE) -> dict[str, str]:
    return {"serve.sh": serve, "utils.py": UTILS, "run.py": CALLER.replace("{imports}", imports).replace("{body}", body)}


@pytest.mark.parametrize("body", BODIES)
def test_a_closure_called_in_another_module_reads_the_factorys_arguments(tmp_path: Path, body: str) -> None:
    assert check(tmp_path, _kernelbench(body)) == [("utils.py", 14, "RPL101")]


@pytest.mark.parametrize(
    ("body", "serve"),
    [
        ("server = create_server(server_type='local', greedy_sample=False)\nserver('p')\n", SERVE),  # sampling at the preset's 0.8
        ("server = create_server(server_type='local', greedy_sample=True)\nserver('p')\n", SERVE.replace("10210", "10211")),
        ("server = create_server(server_type='local', **json.loads(sys.argv[1]))\nserver('p')\n", SERVE),  # the run's
        ("server = create_server(server_type=sys.argv[1], greedy_sample=True)\nserver('p')\n", SERVE),  # which preset: the run's
    ],
)
def test_a_closure_sampling_or_open_to_the_run_or_another_port_stays_silent(tmp_path: Path, body: str, serve: str) -> None:
    assert check(tmp_path, _kernelbench(body, "import json, sys", serve)) == []


@pytest.mark.parametrize(("given", "expected"), [("'None'", [("run.py", 5, "RPL101")]), ("0.7", []), ("sys.argv[1]", [])])
def test_a_key_whose_value_a_filter_drops_leaves_the_earlier_value(tmp_path: Path, given: str, expected: list) -> None:
    files = {
        "run.py": (
            "import sys\n"
            "from vllm import LLM, SamplingParams\n"
            "def generate(**overrides):\n"
            f"    {ENGINE}"
            "    params = {'temperature': 0.0, 'top_k': 20}\n"  # line 5
            "    params.update({k: v for k, v in overrides.items() if v != 'None'})\n"
            "    return llm.generate(['p'], SamplingParams(**params))\n"
            f"generate(temperature={given})\n"
        )
    }
    assert check(tmp_path, files) == expected


# CURE: module globals made by `globals().update(vars(args))`, read by a worker function

SAMPLE = (
    "import argparse, json, sys\n"
    "from vllm import LLM, SamplingParams\n"
    "def worker_fn(model):\n"
    f"    {ENGINE}"
    "    return llm.generate(['p'], SamplingParams(temperature=temp, top_k=20))\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--temp', type=float, {temp})\n"  # line 7
    "args = parser.parse_args()\n"
    "{update}"
    "worker_fn('m')\n"
)
UPDATES = [
    "globals().update(vars(args))\n",  # CURE's
    "globals().update(vars(parser.parse_args()))\n",
    "globals().update({'temp': 0.0})\n",  # line 9
]


@pytest.mark.parametrize("update", UPDATES)
def test_a_global_made_by_globals_update_is_the_mappings_key(tmp_path: Path, update: str) -> None:
    files = {"sample.py": SAMPLE.replace("{temp}", "default=0.0").replace("{update}", update)}
    assert check(tmp_path, files) == [("sample.py", 9 if "{" in update else 7, "RPL101")]


@pytest.mark.parametrize(
    ("temp", "update"),
    [
        ("default=0.7", UPDATES[0]),
        ("required=True", UPDATES[0]),  # the command line gives it
        ("default=0.0", "if args.temp:\n    globals().update(vars(args))\n"),  # on some paths only
        ("default=0.0", "globals().update(json.load(open(sys.argv[1])))\n"),  # the run's
        ("default=0.0", "globals().update(vars(args))\nglobals().update(json.load(open(sys.argv[1])))\n"),
    ],
)
def test_a_global_from_the_run_or_a_branch_stays_silent(tmp_path: Path, temp: str, update: str) -> None:
    files = {"sample.py": SAMPLE.replace("{temp}", temp).replace("{update}", update)}
    assert check(tmp_path, files) == []


def test_a_global_read_at_the_top_level_before_the_update_is_no_read_of_it(tmp_path: Path) -> None:
    text = (
        "import argparse\n"
        "from vllm import LLM, SamplingParams\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--temp', type=float, default=0.0)\n"
        "args = parser.parse_args()\n"
        f"{ENGINE}"
        "llm.generate(['p'], SamplingParams(temperature=temp, top_k=20))\n"  # NameError: no request
        "globals().update(vars(args))\n"
    )
    assert check(tmp_path, {"sample.py": text}) == []


@pytest.mark.parametrize(("option", "expected"), [("type=int, default=1", [("run.py", 9, "RPL003")]), ("action='store_true'", [])])
def test_an_engine_class_chosen_under_a_flag_is_built_where_the_flag_holds(tmp_path: Path, option: str, expected: list) -> None:
    files = {
        "run.py": (
            "import argparse\n"
            "from vllm import LLM\n"
            "class VLLMModel:\n"
            "    def __init__(self, name, **kwargs):\n"
            "        self.model = LLM(name, return_sampling_mask=True, **kwargs)\n"
            "def load(args):\n"
            "    if args.use_vllm:\n"
            "        model_cls = VLLMModel\n"
            "    return model_cls('m', logprobs_mode='raw_logprobs')\n"  # line 9
            "parser = argparse.ArgumentParser()\n"
            f"parser.add_argument('--use_vllm', {option})\n"
            "load(parser.parse_args())\n"
        )
    }
    assert check(tmp_path, files) == expected
