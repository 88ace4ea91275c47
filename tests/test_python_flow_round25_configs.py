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
