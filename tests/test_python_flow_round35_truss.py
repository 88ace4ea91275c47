"""What held-out round 35 (tests/data/python_flow/h35_truss_*) taught: a Truss model's engine built
from its config.yaml.

Truss (basetenlabs/truss 0.12.0, truss/templates/server/model_wrapper.py `_load_impl`) loads the
class `model_class_name` (`Model`) of `model_module_dir/model_class_filename` (`model/model.py`)
and makes it with `config=` the parsed config.yaml, then calls `load()`. truss-examples' vLLM
model reads `kwargs["config"]["model_metadata"]["vllm_config"]` and spreads it into
`AsyncEngineArgs`: the keys reach vLLM where config.yaml writes them
(`framework_registry.SERVED_CLASSES`, `flow.handed_configs`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

CONFIG = (
    'model_name: "Llama VLLM"\n'
    "model_metadata:\n"
    "  repo_id: meta-llama/Meta-Llama-3.1-8B-Instruct\n"
    "  vllm_config:\n"
    "    max_model_len: 2048\n"
    "    return_sampling_mask: true\n"  # line 6
    "{more}"
    "requirements:\n"
    "  - vllm==0.34.0\n"
)

MODEL = (
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "from vllm.engine.async_llm_engine import AsyncLLMEngine\n"
    "\n"
    "\n"
    "class {name}:\n"
    "{init}"
    "\n"
    "    def load(self):\n"
    "{load}"
    "        self.llm_engine = AsyncLLMEngine.from_engine_args(self.model_args)\n"
)

# truss-examples' vllm/model/model.py
KWARGS_INIT = (
    "    def __init__(self, **kwargs):\n        self._config = kwargs['config']\n        self._secret = kwargs['secrets']['hf_token']\n"
)
EXAMPLES_LOAD = (
    "        model_metadata = self._config['model_metadata']\n"
    "        vllm_config = model_metadata['vllm_config']\n"
    "        self.model_args = AsyncEngineArgs(model=model_metadata['repo_id'], **vllm_config)\n"
)


def _model(name: str = "Model", init: str = KWARGS_INIT, load: str = EXAMPLES_LOAD) -> str:
    return MODEL.format(name=name, init=init, load=load)


@pytest.mark.parametrize(
    ("init", "load"),
    [
        (KWARGS_INIT, EXAMPLES_LOAD),
        # the keyword named in the signature, the mapping taken with `.get` and a default
        (
            "    def __init__(self, config: dict, data_dir, secrets, **kwargs):\n        self._config = config\n",
            "        vllm_config = self._config['model_metadata'].get('vllm_config', {})\n"
            "        self.model_args = AsyncEngineArgs(model='m', **vllm_config)\n",
        ),
    ],
)
def test_the_mask_without_a_mode_in_the_config_is_reported_there(tmp_path: Path, init: str, load: str) -> None:
    files = {"config.yaml": CONFIG.format(more=""), "model/model.py": _model(init=init, load=load)}
    assert check(tmp_path, files) == [("config.yaml", 6, "RPL003")]


def test_the_mode_in_the_config_keeps_it_clean(tmp_path: Path) -> None:
    files = {"config.yaml": CONFIG.format(more="    logprobs_mode: processed_logprobs\n"), "model/model.py": _model()}
    assert check(tmp_path, files) == []


def test_a_module_and_class_the_config_names_are_the_ones_made(tmp_path: Path) -> None:
    config = CONFIG.format(more="model_module_dir: src\nmodel_class_name: VllmModel\n")
    files = {"config.yaml": config, "src/model.py": _model(name="VllmModel")}
    assert check(tmp_path, files) == [("config.yaml", 6, "RPL003")]


@pytest.mark.parametrize(
    ("config", "path", "name"),
    [
        # Truss makes `Model`, not another class of the module: what reaches it is not known
        (CONFIG.format(more=""), "model/model.py", "Engine"),
        # a module the config does not name
        (CONFIG.format(more=""), "other/model.py", "Model"),
        # a custom server runs its own command; no class is made
        (CONFIG.format(more="docker_server:\n  start_command: python serve.py\n"), "model/model.py", "Model"),
    ],
)
def test_a_class_truss_does_not_make_with_the_config_stays_open(tmp_path: Path, config: str, path: str, name: str) -> None:
    assert check(tmp_path, {"config.yaml": config, path: _model(name=name)}) == []
