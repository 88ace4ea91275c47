"""The runner variable written by a config class of the tree (held-out round 25's
h25_flashrag_yaml_env_v2_runner_zero): a script makes FlashRAG's `Config(path)` from a YAML file of
the tree (the path an argparse default names), `Config.__init__` merges it over the package's
defaults (`_update_dict`: the keys both hold whose value is a dict merged one level down) and calls
`self._init_device()`, which copies the config's `env` mapping into `os.environ` by
`for name, value in ...items(): os.environ[name] = str(value)`. Then the script hands the config
to a function of another module that builds the engine.

What the flow now follows for it: the statements of a caller in another module's function that
led to the engine (and of that function's own callers); a construction of a class of the tree
whose module writes `os.environ`, its `__init__` with the construction's arguments and the methods
it calls on `self`; a loop that writes `str(value)`; a list of keys grown in a loop
(`same_keys.append(key)`), iterated where the next loop starts; and `isinstance(value, dict)` of a
mapping the program made itself or loaded with PyYAML or json (OmegaConf's `DictConfig` is no dict:
its test stays unknown). What a value rests on (the argparse default that names the file) is said
in the message. A config from outside the tree, the loop under a branch not taken, a later write
that removes the variable, or another engine stay silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

CONFIG = (
    "import os\n"
    "\n"
    "import yaml\n"
    "\n"
    "\n"
    "class Config:\n"
    "    def __init__(self, config_file_path=None, config_dict={{}}):\n"
    "        self.file_config = self._load_file_config(config_file_path)\n"
    "        self.variable_config = config_dict\n"
    "        self.internal_config = self._load_file_config(os.path.join(os.path.dirname(__file__), 'basic_config.yaml'))\n"
    "        self.final_config = self._update_dict(self._update_dict(dict(), self.internal_config), self._merged())\n"
    "        self._init_device()\n"
    "\n"
    "    def _load_file_config(self, config_file_path):\n"
    "        file_config = dict()\n"
    "        if config_file_path:\n"
    "            with open(config_file_path, 'r', encoding='utf-8') as f:\n"
    "                file_config.update(yaml.load(f.read(), Loader=yaml.FullLoader))\n"
    "        return file_config\n"
    "\n"
    "    @staticmethod\n"
    "    def _update_dict(old_dict, new_dict):\n"
    "        same_keys = []\n"
    "        for key, value in new_dict.items():\n"
    "            if key in old_dict and isinstance(value, dict):\n"
    "                same_keys.append(key)\n"
    "        for key in same_keys:\n"
    "            old_item = old_dict[key]\n"
    "            new_item = new_dict[key]\n"
    "            old_item.update(new_item)\n"
    "            new_dict[key] = old_item\n"
    "        old_dict.update(new_dict)\n"
    "        return old_dict\n"
    "\n"
    "    def _merged(self):\n"
    "        return self._update_dict(self._update_dict(dict(), self.file_config), self.variable_config)\n"
    "\n"
    "    def _init_device(self):\n"
    "{export}"
    "        self.final_config['gpu_num'] = 1\n"
    "\n"
    "    def __getitem__(self, item):\n"
    "        return self.final_config.get(item)\n"
)
EXPORT = "        for name, value in self.final_config.get('env', {}).items():\n            os.environ[name] = str(value)\n"
BASIC = "gpu_id: '0'\nframework: fschat\ngeneration_params:\n  max_tokens: 32\n"
USER = (
    "framework: vllm\n"
    "generator_model_path: Qwen/Qwen2.5-7B-Instruct\n"
    "env:\n"
    "  VLLM_USE_V2_MODEL_RUNNER: {runner}\n"  # line 4
    "  VLLM_LOGGING_LEVEL: INFO\n"
    "generation_params:\n"
    "  temperature: 0.7\n"
    "  top_k: 40\n"
)
GENERATOR = (
    "class VLLMGenerator:\n"
    "    def __init__(self, config):\n"
    "        self.model_path = config['generator_model_path']\n"
    "        from vllm import LLM\n"
    "\n"
    "        self.model = LLM(self.model_path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
)
UTILS = (
    "import importlib\n"
    "import os\n"
    "\n"
    "\n"
    "def get_generator(config):\n"
    "{before}"
    "    if config['framework'] == 'vllm':\n"
    "        return getattr(importlib.import_module('generator'), 'VLLMGenerator')(config)\n"
    "    raise NotImplementedError(config['framework'])\n"
)
PIPELINE = (
    "import argparse\n"
    "\n"
    "from config import Config\n"
    "from utils import get_generator\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--config_path', type=str, {path})\n"
    "args = parser.parse_args()\n"
    "\n"
    "config = Config(args.config_path, {given})\n"
    "generator = get_generator(config)\n"
)


def _flashrag(
    export: str = EXPORT,
    runner: str = "'0'",
    path: str = "default='my_config.yaml'",
    given: str = "{'save_note': 'replay'}",
    before: str = "",
    pipeline: str = PIPELINE,
) -> dict[str, str]:
    return {
        "config.py": CONFIG.format(export=export),
        "basic_config.yaml": BASIC,
        "my_config.yaml": USER.format(runner=runner),
        "generator.py": GENERATOR,
        "utils.py": UTILS.format(before=before),
        "pipeline.py": pipeline.format(path=path, given=given),
    }


FOUND = [("my_config.yaml", 4, "RPL206")]


def test_the_case_spelling_a_config_exported_by_a_method_init_calls(tmp_path: Path) -> None:
    assert check(tmp_path, _flashrag()) == FOUND


@pytest.mark.parametrize(
    "export",
    [
        # the value written as it is (a text in the YAML)
        "        for name, value in self.final_config.get('env', {}).items():\n            os.environ[name] = value\n",
        # the key read by subscript, other names
        "        for key, val in self.final_config['env'].items():\n            os.environ[key] = str(val)\n",
    ],
)
def test_other_spellings_of_the_loop(tmp_path: Path, export: str) -> None:
    assert check(tmp_path, _flashrag(export=export)) == FOUND


def test_a_number_in_the_yaml_written_as_its_text(tmp_path: Path) -> None:
    assert check(tmp_path, _flashrag(runner="0")) == FOUND


def test_the_config_made_in_a_main_function_the_script_calls(tmp_path: Path) -> None:
    pipeline = PIPELINE.replace("config = Config(", "def main():\n    config = Config(").replace(
        "generator = get_generator(config)\n", "    get_generator(config)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert check(tmp_path, _flashrag(pipeline=pipeline)) == FOUND


def test_the_engine_built_by_the_script_itself(tmp_path: Path) -> None:
    pipeline = PIPELINE.replace("from utils import get_generator\n", "from vllm import LLM\n").replace(
        "generator = get_generator(config)\n",
        "LLM(config['generator_model_path'], return_sampling_mask=True, logprobs_mode='processed_logprobs')\n",
    )
    assert check(tmp_path, _flashrag(pipeline=pipeline)) == FOUND


# precision twins


@pytest.mark.parametrize(
    "path",
    [
        "required=True",  # the file the command line names: not in the tree
        "default=os.environ['CONFIG']",  # the run's environment names it
    ],
)
def test_a_config_file_named_at_run_time_stays_unknown(tmp_path: Path, path: str) -> None:
    pipeline = "import os\n" + PIPELINE
    assert check(tmp_path, _flashrag(path=path, pipeline=pipeline)) == []


def test_a_mapping_from_outside_the_tree_merged_last_may_change_the_variable(tmp_path: Path) -> None:
    pipeline = "import json\nimport sys\n" + PIPELINE
    assert check(tmp_path, _flashrag(given="json.loads(sys.argv[1])", pipeline=pipeline)) == []


@pytest.mark.parametrize(
    "test",
    [
        "self.final_config.get('framework') == 'fschat'",  # the user's file says vllm: never taken
        "self.final_config.get('export_env', False)",  # a key no layer sets, in a mapping with keys not known here
        "os.environ.get('EXPORT_ENV')",  # the run decides
    ],
)
def test_the_loop_under_a_branch_not_taken_or_not_known(tmp_path: Path, test: str) -> None:
    export = f"        if {test}:\n" + "".join("    " + line + "\n" for line in EXPORT.splitlines())
    assert check(tmp_path, _flashrag(export=export)) == []


def test_the_variable_removed_before_the_engine_is_built(tmp_path: Path) -> None:
    before = "    os.environ.pop('VLLM_USE_V2_MODEL_RUNNER', None)\n"
    assert check(tmp_path, _flashrag(before=before)) == []


def test_another_engine_chosen_by_the_config(tmp_path: Path) -> None:
    files = _flashrag()
    files["my_config.yaml"] = files["my_config.yaml"].replace("framework: vllm", "framework: sglang")
    assert check(tmp_path, files) == []


# `isinstance(value, dict)`: decided for a dict the program made or loaded with PyYAML or json, not
# for OmegaConf's config (a `DictConfig` is no `dict`)

TYPED = (
    "import json\n"
    "\n"
    "import yaml\n"
    "from omegaconf import OmegaConf\n"
    "from vllm import LLM\n"
    "\n"
    "cfg = {made}\n"
    "mode = 'raw_logprobs' if isinstance(cfg, dict) else 'processed_logprobs'\n"  # line 8
    "LLM('m', return_sampling_mask=True, logprobs_mode=mode)\n"
)


@pytest.mark.parametrize("made", ["{'a': 1}", "dict(a=1)", "yaml.safe_load(open('c.yaml'))", "json.load(open('c.json'))"])
def test_a_dict_the_program_made_or_loaded_is_a_dict(tmp_path: Path, made: str) -> None:
    files = {"run.py": TYPED.format(made=made), "c.yaml": "a: 1\n", "c.json": '{"a": 1}\n'}
    assert check(tmp_path, files) == [("run.py", 8, "RPL003")]


def test_omegaconf_config_may_be_no_dict(tmp_path: Path) -> None:
    files = {"run.py": TYPED.format(made="OmegaConf.load('c.yaml')"), "c.yaml": "a: 1\n"}
    assert check(tmp_path, files) == []
