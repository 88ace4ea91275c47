"""What held-out round 26 (tests/data/python_flow/h26_datajuicer_*) made the value flow follow in
data-juicer's model plumbing.

`prepare_model(model_type, **model_kwargs)` returns `partial(MODEL_FUNCTION_MAPPING[model_type],
**model_kwargs)`; the op keeps it in `self.model_key` (set under `if enable_vllm:`) and
`get_model(model_key)` calls `model_key()` once and keeps the result in `MODEL_ZOO`. The engine is
built with the keywords the partial holds, and `get_model(...)` gives back what `model_key()` made,
so the op's requests reach that engine. Before, the engine was judged as written (`**llm_params`
unknown: no mask) and the requests reached nothing (a `logit_bias` was not seen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MODEL_UTILS = (
    "from functools import partial\n"
    "\n"
    "MODEL_ZOO = {}\n"
    "\n"
    "\n"
    "def prepare_vllm_model(pretrained_model_name_or_path, **llm_params):\n"
    "    import vllm\n"
    "\n"
    "    model = vllm.LLM(model=pretrained_model_name_or_path, **llm_params)\n"
    "    return (model, model.get_tokenizer())\n"
    "\n"
    "\n"
    "MODEL_FUNCTION_MAPPING = {'vllm': prepare_vllm_model}\n"
    "\n"
    "\n"
    "def prepare_model(model_type, **model_kwargs):\n"
    "    model_func = MODEL_FUNCTION_MAPPING[model_type]\n"
    "    return partial(model_func, **model_kwargs)\n"
    "\n"
    "\n"
)
GET_MODEL = (
    "def get_model(model_key):\n"
    "    if model_key not in MODEL_ZOO:\n"
    "        MODEL_ZOO[model_key] = model_key()\n"
    "    return MODEL_ZOO[model_key]\n"
)
MAPPER = (
    "import vllm\n"
    "\n"
    "from model_utils import get_model, prepare_model\n"
    "\n"
    "\n"
    "class Mapper:\n"
    "    def __init__(self, hf_model='m', *, enable_vllm=False, model_params=None, sampling_params=None):\n"
    "        model_params = model_params or {}\n"
    "        if enable_vllm:\n"
    "            self.model_key = prepare_model(model_type='vllm', pretrained_model_name_or_path=hf_model, **model_params)\n"
    "            self.sampling_params = vllm.SamplingParams(**(sampling_params or {}))\n"
    "\n"
    "    def process_single(self, text):\n"
    "        model, _ = get_model(self.model_key)\n"
    "        return model.generate([text], self.sampling_params)\n"
)
REPLAY = "dict(return_sampling_mask=True, logprobs_mode='processed_logprobs')"


def _process(sampling: str, enable: str = "enable_vllm=True, ", model_params: str = REPLAY) -> str:
    return (
        "from mapper import Mapper\n"
        "\n"
        f"sampling_params = {sampling}\n"
        f"op = Mapper({enable}model_params={model_params}, sampling_params=sampling_params)\n"
        "op.process_single('x')\n"
    )


def _files(process: str, getter: str = GET_MODEL) -> dict[str, str]:
    return {"model_utils.py": MODEL_UTILS + getter, "mapper.py": MAPPER, "process.py": process}


def test_the_case_logit_bias_written_into_the_op_sampling_params(tmp_path: Path) -> None:
    process = _process("dict(temperature=0.7, top_k=20)\nsampling_params['logit_bias'] = {151643: -100.0}")
    assert check(tmp_path, _files(process)) == [("process.py", 4, "RPL302")]


@pytest.mark.parametrize(
    "getter",
    [
        GET_MODEL,
        "def get_model(model_key):\n    return model_key()\n",
        "def get_model(model_key=None):\n    if model_key not in MODEL_ZOO:\n        MODEL_ZOO[model_key] = model_key()\n    return MODEL_ZOO[model_key]\n",
    ],
)
def test_a_greedy_request_reaches_the_engine_the_partial_builds(tmp_path: Path, getter: str) -> None:
    process = _process("dict(temperature=0, top_k=20)")
    assert check(tmp_path, _files(process, getter)) == [("process.py", 3, "RPL101")]


def test_the_engine_keywords_the_partial_holds_decide_the_engine(tmp_path: Path) -> None:
    process = _process("dict(temperature=0.7, top_k=20)", model_params="dict(return_sampling_mask=True, logprobs_mode='raw_logprobs')")
    assert check(tmp_path, _files(process)) == [("process.py", 4, "RPL003")]


def test_a_sampling_request_to_the_engine_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _files(_process("dict(temperature=0.7, top_k=20)"))) == []


def test_the_op_without_enable_vllm_builds_no_engine(tmp_path: Path) -> None:
    assert check(tmp_path, _files(_process("dict(temperature=0, top_k=20)", enable=""))) == []


def test_engine_keywords_from_outside_the_tree_keep_the_engine_open(tmp_path: Path) -> None:
    process = _process("dict(temperature=0, top_k=20)", model_params="json.load(open('engine.json'))")
    assert check(tmp_path, _files("import json\n" + process)) == []


def test_a_cache_filled_elsewhere_is_not_what_the_getter_returns(tmp_path: Path) -> None:
    getter = GET_MODEL + "\n\ndef preload(key, model):\n    MODEL_ZOO[key] = model\n"
    assert check(tmp_path, _files(_process("dict(temperature=0, top_k=20)"), getter)) == []


# A recipe YAML (`process: - op_name: {model_params: ..., sampling_params: ...}`) found from the
# loader's own place, its op built from a registry of classes: the findings sit at the YAML lines.
RECIPE = (
    "process:\n"
    "  - qa_mapper:\n"
    "      enable_vllm: true\n"
    "      model_params:\n"
    "        return_sampling_mask: true\n"
    "        logprobs_mode: {mode}\n"  # line 6
    "      sampling_params:\n"
    "        temperature: {temperature}\n"  # line 8
    "        top_k: 40\n"
)
LOADER_HEAD = (
    "import os\n"
    "\n"
    "import yaml\n"
    "\n"
    "from mapper import Mapper\n"
    "\n"
    "OPERATORS = {'qa_mapper': Mapper}\n"
    "RECIPE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'configs', 'recipe.yaml')\n"
    "with open(RECIPE) as f:\n"
    "    cfg = yaml.safe_load(f)\n"
    "\n"
)
LOADERS = [
    "def load_ops(process_list):\n"
    "    ops = []\n"
    "    for process in process_list:\n"
    "        op_name, args = list(process.items())[0]\n"
    "        ops.append(OPERATORS[op_name](**(args or {})))\n"
    "    return ops\n"
    "\n"
    "\n"
    "for op in load_ops(cfg['process']):\n"
    "    op.process_single('x')\n",
    "for process in cfg['process']:\n    op_name, args = list(process.items())[0]\n    OPERATORS[op_name](**args).process_single('x')\n",
    "for process in cfg['process']:\n    Mapper(**process['qa_mapper']).process_single('x')\n",
]


def _recipe_files(loader: str, mode: str = "processed_logprobs", temperature: str = "0.8", recipe: str = RECIPE) -> dict[str, str]:
    files = _files("")
    files["process.py"] = LOADER_HEAD + loader
    files["configs/recipe.yaml"] = recipe.format(mode=mode, temperature=temperature)
    return files


@pytest.mark.parametrize("loader", LOADERS)
def test_a_recipe_op_greedy_temperature_at_its_yaml_line(tmp_path: Path, loader: str) -> None:
    assert check(tmp_path, _recipe_files(loader, temperature="0")) == [("recipe.yaml", 8, "RPL101")]


@pytest.mark.parametrize("loader", LOADERS[:2])
def test_a_recipe_op_raw_logprobs_at_its_yaml_line(tmp_path: Path, loader: str) -> None:
    assert check(tmp_path, _recipe_files(loader, mode="raw_logprobs")) == [("recipe.yaml", 6, "RPL003")]


@pytest.mark.parametrize("loader", LOADERS[:2])
def test_a_recipe_op_sampling_is_clean(tmp_path: Path, loader: str) -> None:
    assert check(tmp_path, _recipe_files(loader)) == []


def test_a_recipe_of_two_ops_is_not_read_as_one(tmp_path: Path) -> None:
    two = RECIPE + "  - qa_mapper:\n      enable_vllm: false\n"
    assert check(tmp_path, _recipe_files(LOADERS[1], temperature="0", recipe=two)) == []


def test_a_recipe_whose_path_comes_from_the_command_line_stays_open(tmp_path: Path) -> None:
    files = _recipe_files(LOADERS[1], temperature="0")
    files["process.py"] = files["process.py"].replace("RECIPE = os.path.join(", "RECIPE = os.environ['RECIPE'] or os.path.join(")
    assert check(tmp_path, files) == []
