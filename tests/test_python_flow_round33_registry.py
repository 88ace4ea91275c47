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


SPLIT = (
    "import inspect\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def vllm(prompts, llm, **kwargs):\n"
    "    model = make_vllm_instance(llm, kwargs)\n"
    "    return model.generate(prompts)\n"
    "\n"
    "\n"
    "def make_vllm_instance(llm, input_args):\n"
    "{names}"
    "    result_kwargs = {{}}\n"
    "    for key, value in input_args.items():\n"
    "        if key not in sampling_params_init_params:\n"
    "            result_kwargs[key] = value\n"
    "    return LLM(llm, **result_kwargs)\n"
)

AUTORAG_NAMES = (
    "    from_optional_params = inspect.signature(SamplingParams.from_optional).parameters.values()\n"
    "    sampling_params_init_params = [param.name for param in from_optional_params]\n"
)


@pytest.mark.parametrize(
    "names",
    [
        AUTORAG_NAMES,
        "    sampling_params_init_params = list(inspect.signature(SamplingParams.from_optional).parameters)\n",
        "    sampling_params_init_params = inspect.signature(SamplingParams.from_optional).parameters.keys()\n",
    ],
)
def test_the_engine_keywords_split_off_by_from_optionals_parameters(tmp_path: Path, names: str) -> None:
    tree = {**_tree(), "autorag/nodes/generator/vllm.py": SPLIT.format(names=names)}
    assert check(tmp_path, tree) == [("generator.yaml", 4, "RPL003")]


def test_the_mode_split_off_with_the_mask_keeps_it_clean(tmp_path: Path) -> None:
    tree = {**_tree(more="    logprobs_mode: processed_logprobs\n"), "autorag/nodes/generator/vllm.py": SPLIT.format(names=AUTORAG_NAMES)}
    assert check(tmp_path, tree) == []


def test_a_name_only_later_releases_take_does_not_hide_the_modes_absence(tmp_path: Path) -> None:
    # `watermarking` is a parameter of `from_optional` since 0.31.0: it may go to either side, the mode to none
    tree = {**_tree(more="    watermarking: null\n"), "autorag/nodes/generator/vllm.py": SPLIT.format(names=AUTORAG_NAMES)}
    assert check(tmp_path, tree) == [("generator.yaml", 4, "RPL003")]


def test_the_names_of_another_signature_leave_the_split_open(tmp_path: Path) -> None:
    names = AUTORAG_NAMES.replace("SamplingParams.from_optional", "SamplingParams.clone")
    tree = {**_tree(), "autorag/nodes/generator/vllm.py": SPLIT.format(names=names)}
    assert check(tmp_path, tree) == []


# the request's keys after the engine's were popped from it by the function it is handed to

REQUEST = (
    "from copy import deepcopy\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def vllm(prompts, llm, **kwargs):\n"
    "    input_kwargs = deepcopy(kwargs)\n"
    "    model = make_vllm_instance(llm, input_kwargs)\n"
    "    if 'logprobs' not in input_kwargs:\n"
    "        input_kwargs['logprobs'] = 1\n"
    "    params = SamplingParams(**input_kwargs)\n"  # line 11
    "    return model.generate(prompts, params)\n"
    "\n"
    "\n"
    "def make_vllm_instance(llm, input_args):\n"
    "    engine_kwargs = {{}}\n"
    "    for key in ('return_sampling_mask', 'logprobs_mode'):\n"
    "        if key in input_args:\n"
    "            engine_kwargs[key] = input_args.pop(key)\n"
    "{more}"
    "    return LLM(llm, **engine_kwargs)\n"
)

MODE = "    logprobs_mode: processed_logprobs\n"


def _request_tree(more: str = "") -> dict:
    return {**_tree(more=MODE), "autorag/nodes/generator/vllm.py": REQUEST.format(more=more)}


def _without_top_k(tree: dict) -> dict:
    return {**tree, "config/generator.yaml": tree["config/generator.yaml"].replace("    top_k: 20\n", "")}


def test_a_request_of_a_function_called_through_the_table_is_judged(tmp_path: Path) -> None:
    assert check(tmp_path, _without_top_k(_request_tree())) == [("vllm.py", 11, "RPL102")]


def test_the_request_keeps_the_configs_top_k_the_function_only_pops_others(tmp_path: Path) -> None:
    assert check(tmp_path, _request_tree()) == []


@pytest.mark.parametrize(
    "more",
    [
        "    input_args['top_k'] = 20\n",  # a key put in
        "    input_args.update(top_k=20)\n",
        "    fill(input_args)\n",  # handed on
        "    kept = input_args\n",  # bound to another name
    ],
)
def test_a_function_that_may_put_keys_in_leaves_the_request_open(tmp_path: Path, more: str) -> None:
    tree = _without_top_k(_request_tree(more=more))
    tree["autorag/nodes/generator/vllm.py"] += "\n\ndef fill(d):\n    d['top_k'] = 20\n"
    assert check(tmp_path, tree) == []


SINGLE = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def look(d):\n"
    "    return {{k: d[k] for k in d if k in ('temperature',)}}\n"
    "\n"
    "\n"
    "def fill(d):\n"
    "    d.setdefault('top_k', 20)\n"
    "\n"
    "\n"
    "def main():\n"
    "    kw = {{'temperature': 0.7}}\n"
    "    {call}\n"
    "    llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    return llm.generate(['x'], SamplingParams(**kw))\n"  # line 16
    "\n"
    "\n"
    "main()\n"
)


@pytest.mark.parametrize(("call", "found"), [("look(kw)", [("run.py", 16, "RPL102")]), ("shown = look(kw)", [("run.py", 16, "RPL102")])])
def test_a_dict_handed_to_a_function_that_only_reads_it_stays_as_it_was(tmp_path: Path, call: str, found: list) -> None:
    assert check(tmp_path, {"run.py": SINGLE.format(call=call)}) == found


@pytest.mark.parametrize("call", ["fill(kw)", "filled = fill(kw)"])
def test_a_dict_handed_to_a_function_that_fills_it_is_left_open(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, {"run.py": SINGLE.format(call=call)}) == []
