"""What held-out rounds 24 and 25 (tests/data/python_flow/h24_*, h25_*) made the value flow follow
in configs and the objects that carry them.

An object called as a function (Archon's `self.generator(..., top_k=self.top_k)`, `self.generator`
a `vllmWrapper` on one branch of three) is a call of its class's `__call__`: a key that call passes
reaches the method's `**kwargs`, so `kwargs.get("top_k", -1)` there is no longer judged as written
(it was an RPL102 "when the caller passes no `top_k`" on a request vLLM accepts with top_k 40). A
call that passes other keywords only, or a function of the tree called with the key, leaves the
method judged as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

WRAPPER = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class Wrapper:\n"
    "    def __init__(self, model_name, **engine_kwargs):\n"
    "        self.model = LLM(model=model_name, **engine_kwargs)\n"
    "\n"
    "    def __call__(self, model_name, prompt, temperature, **kwargs):\n"
    "        params = SamplingParams(\n"
    "            temperature=temperature,\n"
    "            top_k=kwargs.get('top_k', -1),\n"  # line 11
    "        )\n"
    "        return self.model.generate([prompt], params)\n"
)
OWNER = (
    "from wrapper import Wrapper\n"
    "\n"
    "REPLAY = {{'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}}\n"
    "\n"
    "\n"
    "def other(prompt, **kwargs):\n"
    "    return prompt\n"
    "\n"
    "\n"
    "class Generator:\n"
    "    def __init__(self, config):\n"
    "        self.top_k = config.get('top_k', 20)\n"
    "        if config['model_type'] == 'vLLM':\n"
    "            self.generator = Wrapper(config['model'], **REPLAY)\n"
    "        else:\n"
    "            self.generator = config['custom']\n"
    "\n"
    "    def ask(self, prompt):\n"
    "        return {call}\n"
    "\n"
    "\n"
    "Generator({{'model': 'm', 'model_type': 'vLLM', 'top_k': 40}}).ask('p')\n"
)


def _files(call: str) -> dict[str, str]:
    return {"wrapper.py": WRAPPER, "generator.py": OWNER.format(call=call)}


@pytest.mark.parametrize(
    "call",
    [
        "self.generator(model_name='m', prompt=prompt, temperature=0.7, top_k=self.top_k)",
        "self.generator('m', prompt, 0.7, top_k=40)",
        "self.generator('m', prompt, 0.7, **{'top_k': self.top_k})",
    ],
)
def test_an_object_called_with_the_key_passes_it_to_its_call_method(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, _files(call)) == []


def test_an_object_bound_to_a_name_and_called_with_the_key(tmp_path: Path) -> None:
    owner = (
        "from wrapper import Wrapper\n"
        "\n"
        "wrapper = Wrapper('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "wrapper('m', 'p', 0.7, top_k=40)\n"
    )
    assert check(tmp_path, {"wrapper.py": WRAPPER, "run.py": owner}) == []


def test_an_object_called_without_the_key_is_judged_as_written(tmp_path: Path) -> None:
    files = _files("self.generator(model='m', prompt=prompt, temperature=0.7)")
    assert check(tmp_path, files) == [("wrapper.py", 11, "RPL102")]


def test_a_function_of_the_tree_called_with_the_key_is_not_the_object(tmp_path: Path) -> None:
    files = _files("[other(prompt, top_k=40), self.generator('m', prompt, 0.7)]")
    assert check(tmp_path, files) == [("wrapper.py", 11, "RPL102")]


# The runner variable a package's `__init__.py` writes (LongWriter-V's `inference/__init__.py`): importing
# `inference.local.glm` runs it before the module, so it holds where an importer starts the engine.

GLM = (
    "from vllm import LLM\n"
    "\n"
    "\n"
    "def get_model(path):\n"
    "    return LLM(model=path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
)
SCRIPT = "from inference.local.glm import get_model\n\nget_model('m')\n"


def _package(init: str, inner: str = "", glm: str = GLM, **more: str) -> dict[str, str]:
    files = {"inference/__init__.py": init, "inference/local/__init__.py": inner, "inference/local/glm.py": glm, "run.py": SCRIPT}
    return {**files, **more}


@pytest.mark.parametrize(
    "write",
    [
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n",
        "os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')\n",
        "os.environ.update({'VLLM_USE_V2_MODEL_RUNNER': '0'})\n",
    ],
)
def test_the_runner_variable_a_package_init_writes(tmp_path: Path, write: str) -> None:
    files = _package("import os\n\nos.environ.setdefault('VLLM_WORKER_MULTIPROC_METHOD', 'spawn')\n" + write)
    assert check(tmp_path, files) == [("__init__.py", 4, "RPL206")]


def test_the_inner_package_writes_after_the_outer_one(tmp_path: Path) -> None:
    files = _package(
        "import os\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '1'\n", inner="import os\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    )
    assert check(tmp_path, files) == [("__init__.py", 2, "RPL206")]
    files = _package(
        "import os\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n", inner="import os\nos.environ.pop('VLLM_USE_V2_MODEL_RUNNER')\n"
    )
    assert check(tmp_path / "popped", files) == []


def test_a_write_under_a_branch_of_the_run_stays_unknown(tmp_path: Path) -> None:
    init = "import os\nif os.environ.get('LEGACY'):\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    assert check(tmp_path, _package(init)) == []


def test_an_engine_the_module_starts_itself_may_run_as_a_script(tmp_path: Path) -> None:
    glm = GLM + "\n\nif __name__ == '__main__':\n    get_model('m')\n"
    files = _package("import os\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n", glm=glm)
    files.pop("run.py")
    assert check(tmp_path, files) == []


def test_a_script_beside_the_module_imports_it_without_the_package(tmp_path: Path) -> None:
    beside = {"inference/local/run_here.py": "from glm import get_model\n\nget_model('m')\n"}
    files = _package("import os\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n", **beside)
    files.pop("run.py")
    assert check(tmp_path, files) == []


# FlashRAG's config (h25_flashrag_config_dict_repetition_penalty): a `Config` object read by
# `config["generation_params"]` through its `__getitem__` (`return self.final_config.get(item)`), the
# final config merged in `__init__` and one key of it written by another method
# (`self.final_config["gpu_num"] = ...`); the generator class made by
# `getattr(importlib.import_module("generator"), "VLLMGenerator")(config, **params)`.

FLASH_CONFIG = (
    "class Config:\n"
    "    def __init__(self, config_dict):\n"
    "        self.final_config = dict(config_dict)\n"
    "        self._init_device()\n"
    "\n"
    "    def _init_device(self):\n"
    "        self.final_config['gpu_num'] = 1\n"
    "        {more}\n"
    "\n"
    "    def __getitem__(self, item):\n"
    "        return {item}\n"
)
FLASH_GENERATOR = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class VLLMGenerator:\n"
    "    def __init__(self, config):\n"
    "        self.generation_params = config['generation_params']\n"
    "        self.model = LLM(config['model'], return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "    def generate(self, prompts):\n"
    "        return self.model.generate(prompts, SamplingParams(**self.generation_params))\n"
)
FLASH_UTILS = (
    "import importlib\n"
    "\n"
    "\n"
    "def get_generator(config, **params):\n"
    "    if config['framework'] == 'vllm':\n"
    "        return {made}(config, **params)\n"
    "    raise NotImplementedError(config['framework'])\n"
)
FLASH_PIPELINE = (
    "from config import Config\n"
    "from utils import get_generator\n"
    "\n"
    "config_dict = {{\n"
    "    'model': 'm',\n"
    "    'framework': '{framework}',\n"
    "    'generation_params': {{'temperature': 0.7, 'top_k': 40, 'repetition_penalty': 1.1}},\n"  # line 7
    "}}\n"
    "get_generator(Config({given})).generate(['p'])\n"
)
INLINE = 'getattr(importlib.import_module("generator"), "VLLMGenerator")'


def _flashrag(
    item: str = "self.final_config.get(item)", more: str = "pass", made: str = INLINE, framework: str = "vllm", given: str = "config_dict"
) -> dict[str, str]:
    return {
        "config.py": FLASH_CONFIG.format(item=item, more=more),
        "generator.py": FLASH_GENERATOR,
        "utils.py": FLASH_UTILS.format(made=made),
        "pipeline.py": FLASH_PIPELINE.format(framework=framework, given=given),
    }


@pytest.mark.parametrize("item", ["self.final_config.get(item)", "self.final_config[item]"])
def test_a_config_object_read_through_its_getitem(tmp_path: Path, item: str) -> None:
    assert check(tmp_path, _flashrag(item=item)) == [("pipeline.py", 7, "RPL302")]


def test_a_class_named_in_a_variable_by_the_factory(tmp_path: Path) -> None:
    files = _flashrag()
    files["utils.py"] = files["utils.py"].replace(f"return {INLINE}(", f"cls = {INLINE}\n        return cls(")
    assert check(tmp_path, files) == [("pipeline.py", 7, "RPL302")]


def test_a_key_another_method_writes_is_not_known(tmp_path: Path) -> None:
    more = "self.final_config['generation_params'] = load_params()"
    assert check(tmp_path, _flashrag(more=more)) == []


def test_a_key_another_method_writes_by_a_key_from_the_run_leaves_the_mapping_unknown(tmp_path: Path) -> None:
    more = "self.final_config[self.final_config['model']] = {}"
    assert check(tmp_path, _flashrag(more=more)) == []


def test_a_getitem_that_reads_something_else_stays_unknown(tmp_path: Path) -> None:
    assert check(tmp_path, _flashrag(item="lookup(self.final_config, item)")) == []


def test_the_factory_naming_another_class_makes_no_engine(tmp_path: Path) -> None:
    files = _flashrag(made=INLINE.replace("VLLMGenerator", "HFGenerator"))
    files["generator.py"] += "\n\nclass HFGenerator:\n    def __init__(self, config):\n        self.config = config\n"
    assert check(tmp_path, files) == []


def test_a_config_from_the_run_stays_unknown(tmp_path: Path) -> None:
    files = _flashrag(given="json.loads(sys.argv[1])")
    files["pipeline.py"] = "import json\nimport sys\n" + files["pipeline.py"]
    assert check(tmp_path, files) == []


# FlashRAG's engine arguments from a YAML (h24_flashrag_engine_kwargs_yaml_processed_logits): the script beside
# `my_config.yaml` makes `Config("my_config.yaml", ...)` (a path from where it runs), `Config.__init__` updates its
# mapping from the file, and the package's `VLLMGenerator` spreads `self._config.get("generator_engine_kwargs", {})`
# into `LLM`. No Python file names the mask: the YAML, whose mapping is too small to be told an engine's by
# content, asks the scripts beside it that name it.

KW_CONFIG = (
    "import yaml\n"
    "\n"
    "\n"
    "class Config:\n"
    "    def __init__(self, config_file_path=None, config_dict=None):\n"
    "        self.final_config = {{'gpu_num': 1}}\n"
    "        if config_file_path is not None:\n"
    "            with open(config_file_path) as f:\n"
    "                self.final_config.update(yaml.safe_load(f))\n"
    "        self.final_config.update(config_dict or {{}})\n"
    "{more}"
    "\n"
    "    def __getitem__(self, key):\n"
    "        return self.final_config.get(key)\n"
    "\n"
    "    def get(self, key, default=None):\n"
    "        return self.final_config.get(key, default)\n"
)
KW_GENERATOR = (
    "class VLLMGenerator:\n"
    "    def __init__(self, config):\n"
    "        self._config = config\n"
    "        from vllm import LLM\n"
    "\n"
    "        engine_kwargs = {read}\n"
    "        self.model = LLM(config['generator_model_path'], **engine_kwargs)\n"
)
KW_YAML = (
    "generator_model_path: Qwen/Qwen2.5-7B-Instruct\n"
    "generator_engine_kwargs:\n"
    "  return_sampling_mask: true\n"
    "  logprobs_mode: processed_logits\n"  # line 4
)
KW_SCRIPT = (
    "from flashrag.config import Config\n"
    "from flashrag.generator.generator import VLLMGenerator\n"
    "\n"
    "config = Config({path}, config_dict={{'framework': 'vllm'}})\n"
    "generator = VLLMGenerator(config)\n"
)


def _engine_kwargs(
    read: str = "self._config.get('generator_engine_kwargs', {})",
    path: str = "'my_config.yaml'",
    yaml_at: str = "my_config.yaml",
    more: str = "",
) -> dict[str, str]:
    return {
        "flashrag/__init__.py": "",
        "flashrag/config/__init__.py": KW_CONFIG.format(more=more),
        "flashrag/generator/__init__.py": "",
        "flashrag/generator/generator.py": KW_GENERATOR.format(read=read),
        yaml_at: KW_YAML,
        "run_exp.py": KW_SCRIPT.format(path=path),
    }


@pytest.mark.parametrize(
    "read",
    ["self._config.get('generator_engine_kwargs', {})", "config['generator_engine_kwargs']", "dict(config.get('generator_engine_kwargs'))"],
)
def test_engine_arguments_from_a_yaml_a_script_beside_it_names(tmp_path: Path, read: str) -> None:
    assert check(tmp_path, _engine_kwargs(read=read)) == [("my_config.yaml", 4, "RPL003")]


def test_a_yaml_elsewhere_than_where_the_script_runs_is_not_that_file(tmp_path: Path) -> None:
    assert check(tmp_path, _engine_kwargs(yaml_at="configs/my_config.yaml")) == []


def test_a_path_from_the_command_line_stays_unknown(tmp_path: Path) -> None:
    files = _engine_kwargs(path="sys.argv[1]")
    files["run_exp.py"] = "import sys\n" + files["run_exp.py"]
    assert check(tmp_path, files) == []


def test_a_mapping_another_method_updates_is_not_known(tmp_path: Path) -> None:
    more = "\n    def merge(self, other):\n        self.final_config.update(other)\n"
    assert check(tmp_path, _engine_kwargs(more=more)) == []


def test_a_module_another_imports_names_the_path_of_its_program(tmp_path: Path) -> None:
    files = {**_engine_kwargs(), "main.py": "import run_exp\n"}  # a library's relative path: where its program runs
    assert check(tmp_path, files) == []
