"""What held-out round 33's AutoRAG cases (tests/data/python_flow/h33_autorag_*) made the value
flow follow from a YAML config of the project to the engine a package's function builds.

AutoRAG's runner reads `config/generator.yaml` (named by its path from where the script runs, a
folder below it) and calls each module through the package's table of imported functions:
`SUPPORT_MODULES[module_type](prompts, **module)` of `SUPPORT_MODULES = {"vllm": vllm}` in
`autorag/nodes/generator/__init__.py` (`from .vllm import vllm`). The config file now finds the
script that names it from its own folder's parent, and the function's call through another
module's table is a site of it: when the key read there picks it, or, for a key not known, when
every entry of the table is it (a table of several functions read with a key not known calls none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

YAML = "modules:\n  - module_type: vllm\n    llm: m\n    return_sampling_mask: true\n    temperature: 0.7\n    top_k: 20\n{more}"

RUNNER = (
    "import yaml\n"
    "\n"
    "from autorag.nodes.generator import SUPPORT_MODULES\n"
    "\n"
    "\n"
    "def run_generator_node(config_path):\n"
    "    with open(config_path) as f:\n"
    "        config = yaml.safe_load(f)\n"
    "    for module in config['modules']:\n"
    "        module_type = module.pop('module_type')\n"
    "        SUPPORT_MODULES[{key}](['q'], **module)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    run_generator_node('{path}')\n"
)

TABLE = "from .vllm import vllm\n{more}\nSUPPORT_MODULES = {{\n    'vllm': vllm,\n{entries}}}\n"

MODULE = (
    "from vllm import LLM\n"
    "\n"
    "from autorag.nodes.generator.base import generator_node\n"
    "\n"
    "\n"
    "@generator_node\n"
    "def vllm(prompts, llm, **kwargs):\n"
    "    model = make_vllm_instance(llm, kwargs)\n"
    "    return model.generate(prompts)\n"
    "\n"
    "\n"
    "def make_vllm_instance(llm, input_args):\n"
    "    return LLM(llm, **input_args)\n"
)

DECORATOR = (
    "import functools\n"
    "\n"
    "\n"
    "def generator_node(func):\n"
    "    @functools.wraps(func)\n"
    "    def wrapper(prompts, llm, **kwargs):\n"
    "        return func(prompts, llm, **kwargs)\n"
    "\n"
    "    return wrapper\n"
)

OTHER = "def openai_llm(prompts, llm, **kwargs):\n    return [llm for _ in prompts]\n"


def _tree(key: str = "module_type", more: str = "", entries: str = "", table_more: str = "", path: str = "config/generator.yaml") -> dict:
    return {
        "config/generator.yaml": YAML.format(more=more),
        "run_generator.py": RUNNER.format(key=key, path=path),
        "autorag/__init__.py": "",
        "autorag/nodes/__init__.py": "",
        "autorag/nodes/generator/__init__.py": TABLE.format(more=table_more, entries=entries),
        "autorag/nodes/generator/base.py": DECORATOR,
        "autorag/nodes/generator/vllm.py": MODULE,
        "autorag/nodes/generator/openai_llm.py": OTHER,
    }


@pytest.mark.parametrize("key", ["module_type", "'vllm'"])
def test_a_config_module_called_through_the_package_table_reaches_the_engine(tmp_path: Path, key: str) -> None:
    assert check(tmp_path, _tree(key=key)) == [("generator.yaml", 4, "RPL003")]


def test_the_mode_written_in_the_config_keeps_it_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _tree(more="    logprobs_mode: processed_logprobs\n")) == []


def test_a_table_of_several_functions_read_with_a_key_not_known_calls_none(tmp_path: Path) -> None:
    several = _tree(table_more="from .openai_llm import openai_llm\n", entries="    'openai_llm': openai_llm,\n")
    assert check(tmp_path, several) == []


def test_a_known_key_picks_its_entry_of_several(tmp_path: Path) -> None:
    more = {"table_more": "from .openai_llm import openai_llm\n", "entries": "    'openai_llm': openai_llm,\n"}
    assert check(tmp_path, _tree(key="'vllm'", **more)) == [("generator.yaml", 4, "RPL003")]
    assert check(tmp_path / "other", _tree(key="'openai_llm'", **more)) == []


def test_a_config_the_script_does_not_name_by_its_path_from_its_folder_stays_unread(tmp_path: Path) -> None:
    assert check(tmp_path, _tree(path="generator.yaml")) == []
