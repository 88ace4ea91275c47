"""What held-out round 38's xinference cases (tests/data/python_flow/h38_xinference_*) made the
value flow follow in a model class that keeps its engine config and engine on `self`.

xinference's `VLLMModel.load()` writes `self._model_config = self._sanitize_model_config(self._model_config)`
over what `__init__` stored, then builds `AsyncEngineArgs(**self._model_config)`: two writes of one
attribute left it unknown. A method that sets the attribute once in its body (no test around the
write, nothing but `__init__` setting it otherwise) now reads it as that write after it, and in the
write's own value as the construction left it.

Its `async_generate(prompt, generate_config)` sends to `self._engine`, which `load()` builds from
`self._model_config`: the request is now read with the calls of the method in the modules that
import the class, as it is for an attribute `__init__` stores, so a `generate_config` without
`top_k` gets `_sanitize_generate_config`'s -1."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MODEL = (
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "from vllm.engine.async_llm_engine import AsyncLLMEngine\n"
    "\n"
    "\n"
    "class Model:\n"
    "    def __init__(self, path, model_config):\n"
    "        self.path = path\n"
    "        self._model_config = model_config\n"
    "\n"
    "    def load(self):\n"
    "{load}"
    "        self._engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model=self.path, **self._model_config))\n"
    "\n"
    "    def _sanitize(self, model_config):\n"
    "        model_config.setdefault('max_model_len', 2048)\n"
    "        return model_config\n"
    "\n"
    "\n"
    "def main():\n"
    "    model = Model(\n"
    "        'm',\n"
    "        {{\n"
    "            'return_sampling_mask': True,\n"  # line 23
    "            'logprobs_mode': 'processed_logprobs',\n"
    "            'speculative_config': {{'method': 'ngram', 'enable_adaptive_verification': {adaptive}}},\n"  # line 25
    "        }},\n"
    "    )\n"
    "    model.load()\n"
)

REFRESHED = [
    "        self._model_config = self._sanitize(self._model_config)\n",  # xinference's
    "        self._model_config = {**self._model_config, 'max_model_len': 2048}\n",
    "        self._model_config = dict(self._model_config, max_model_len=2048)\n",
]


@pytest.mark.parametrize("load", REFRESHED)
def test_the_config_a_method_writes_over_the_stored_one_reaches_the_engine(tmp_path: Path, load: str) -> None:
    files = {"run.py": MODEL.format(load=load, adaptive="True")}
    assert check(tmp_path, files) == [("run.py", 25, "RPL002")]


@pytest.mark.parametrize("load", REFRESHED)
def test_the_refreshed_config_with_fixed_verification_stays_clean(tmp_path: Path, load: str) -> None:
    assert check(tmp_path, {"run.py": MODEL.format(load=load, adaptive="False")}) == []


def test_the_write_over_the_stored_config_is_what_the_engine_reads(tmp_path: Path) -> None:
    load = "        self._model_config = {**self._model_config, 'logprobs_mode': 'raw_logprobs'}\n"
    text = MODEL.format(load=load, adaptive="False")
    assert check(tmp_path, {"run.py": text}) == [("run.py", 11, "RPL003")]  # at the method's write of the mode


@pytest.mark.parametrize(
    "load",
    [
        "        if self.path:\n            self._model_config = {'return_sampling_mask': False}\n",  # under a test
        "        self._model_config = self._sanitize(self._model_config)\n" * 2,  # set twice
    ],
)
def test_a_config_written_in_a_shape_not_followed_stays_open(tmp_path: Path, load: str) -> None:
    assert check(tmp_path, {"run.py": MODEL.format(load=load, adaptive="True")}) == []


def test_a_config_another_method_also_writes_stays_open(tmp_path: Path) -> None:
    load = "        self._model_config = self._sanitize(self._model_config)\n"
    text = MODEL.format(load=load, adaptive="True").replace(
        "    def _sanitize(", "    def reset(self):\n        self._model_config = {}\n\n    def _sanitize("
    )
    assert check(tmp_path, {"run.py": text}) == []


CORE = (
    "from typing import Optional, TypedDict\n"
    "\n"
    "\n"
    "class ModelConfig(TypedDict, total=False):\n"
    "    return_sampling_mask: bool\n"
    "    logprobs_mode: str\n"
    "\n"
    "\n"
    "class Model:\n"
    "    def __init__(self, model_path: str, model_config: Optional[ModelConfig]):\n"
    "        self.model_path = model_path\n"
    "        self._model_config = model_config\n"
    "        self._engine = None\n"
    "\n"
    "    def load(self):\n"
    "        from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "        from vllm.engine.async_llm_engine import AsyncLLMEngine\n"
    "\n"
    "        engine_args = AsyncEngineArgs(model=self.model_path, **self._model_config)\n"
    "        self._engine = AsyncLLMEngine.from_engine_args(engine_args)\n"
    "\n"
    "    @staticmethod\n"
    "    def _sanitize_generate_config(generate_config=None):\n"
    "        if not generate_config:\n"
    "            generate_config = {}\n"
    "        sanitized = {}\n"
    "        sanitized.setdefault('temperature', generate_config.get('temperature', 1.0))\n"
    "        sanitized.setdefault('top_k', generate_config.get('top_k', -1))\n"  # line 28
    "        sanitized.setdefault('stream', generate_config.get('stream', False))\n"
    "        return sanitized\n"
    "\n"
    "    async def async_generate(self, prompt, generate_config=None):\n"
    "        from vllm.sampling_params import SamplingParams\n"
    "\n"
    "        sanitized = self._sanitize_generate_config(generate_config)\n"
    "        sanitized.pop('stream')\n"
    "        final = None\n"
    "        async for output in self._engine.generate(prompt, SamplingParams(**sanitized), 'request'):\n"
    "            final = output\n"
    "        return final\n"
)

DRIVER = (
    "import asyncio\n"
    "import os\n"
    "\n"
    "from pkg.core import Model\n"
    "\n"
    "\n"
    "async def main():\n"
    "    model = Model(\n"
    "        model_path='m',\n"
    "        model_config={{'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}},\n"
    "    )\n"
    "    model.load()\n"
    "    await model.async_generate('hi', {generate})\n"
    "\n"
    "\n"
    "asyncio.run(main())\n"
)


def _tree(generate: str) -> dict[str, str]:
    return {"pkg/__init__.py": "", "pkg/core.py": CORE, "run.py": DRIVER.format(generate=generate)}


@pytest.mark.parametrize("generate", ["{'max_tokens': 128, 'temperature': 0.7}", "dict(temperature=0.7)"])
def test_a_request_without_top_k_to_the_engine_a_method_builds_gets_the_helpers_default(tmp_path: Path, generate: str) -> None:
    assert check(tmp_path, _tree(generate)) == [("core.py", 28, "RPL102")]


@pytest.mark.parametrize(
    "generate",
    [
        "{'max_tokens': 128, 'temperature': 0.7, 'top_k': 20}",  # xinference's clean case
        "{'temperature': 0.7, 'top_k': int(os.environ['TOP_K'])}",  # decided when it runs
    ],
)
def test_a_request_whose_caller_gives_top_k_stays_clean(tmp_path: Path, generate: str) -> None:
    assert check(tmp_path, _tree(generate)) == []


def test_a_request_method_nothing_calls_stays_open(tmp_path: Path) -> None:
    files = _tree("{}")
    files["run.py"] = files["run.py"].replace("    await model.async_generate('hi', {})\n", "")
    assert check(tmp_path, files) == []
