"""What held-out round 37 (tests/data/python_flow/h37_datadreamer_*) made the value flow follow in a library's
wrapper class.

DataDreamer's `VLLM` keeps its constructor's `**kwargs` in `self.kwargs`, and its `model` property builds the
engine in a class written in the property (`class LLMResource:` whose `__init__` calls `LLM(..., **kwargs)` with
`kwargs = self.kwargs.copy()` of the property). The names such a method reads from the function around it were
unknown, so the mask a user passes to `VLLM(...)` was never judged. Now a method of a class written in a function
is read with each frame of that function (as a closure is), where the function first uses the class."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

WRAPPER = (
    "from vllm import LLM\n"
    "\n"
    "\n"
    "class Wrapper:\n"
    "    def __init__(self, name, **kwargs):\n"
    "        self.name = name\n"
    "        self.kwargs = kwargs\n"
    "\n"
    "    def model(self):\n"
    "        kwargs = self.kwargs.copy()\n"
    "{before}"
    "        class Resource:\n"
    "            def __init__(inner):\n"
    "                inner.engine = LLM(model=self.name, **kwargs)\n"
    "\n"
    "{after}"
)
USED = "        return Resource()\n"
RUN = "from wrapper import Wrapper\n\nWrapper('m', max_model_len=2048, {keywords}).model()\n"  # line 3


def test_the_mask_given_to_the_wrapper_reaches_the_engine_of_its_nested_class(tmp_path: Path) -> None:
    files = {"wrapper.py": WRAPPER.format(before="", after=USED), "run.py": RUN.format(keywords="return_sampling_mask=True")}
    assert check(tmp_path, files) == [("run.py", 3, "RPL003")]


@pytest.mark.parametrize(
    "keywords",
    [
        "return_sampling_mask=True, logprobs_mode='processed_logprobs'",
        "return_sampling_mask=False",
        "logprobs_mode='processed_logprobs'",
    ],
)
def test_a_wrapper_launch_the_rules_accept_stays_clean(tmp_path: Path, keywords: str) -> None:
    files = {"wrapper.py": WRAPPER.format(before="", after=USED), "run.py": RUN.format(keywords=keywords)}
    assert check(tmp_path, files) == []


def test_a_mode_the_function_adds_before_it_uses_the_class_is_read(tmp_path: Path) -> None:
    after = "        kwargs['logprobs_mode'] = 'processed_logprobs'\n" + USED
    files = {"wrapper.py": WRAPPER.format(before="", after=after), "run.py": RUN.format(keywords="return_sampling_mask=True")}
    assert check(tmp_path, files) == []


def test_a_free_name_the_function_takes_from_its_caller_stays_unknown(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM\n"
        "\n"
        "\n"
        "def build(options):\n"
        "    class Resource:\n"
        "        def __init__(self):\n"
        "            self.engine = LLM(model='m', return_sampling_mask=True, **options)\n"
        "\n"
        "    return Resource()\n"
    )
    assert check(tmp_path, {"wrapper.py": text}) == []  # `options` may hold the mode


def test_datadreamer_spelling_through_a_resource_proxy(tmp_path: Path) -> None:
    """DataDreamer's own spelling: the engine class found by `import_module`, the class handed to a helper of another
    module that makes it (`proxy_resource_in_background(LLMResource, env=env)`), a keyword popped first."""
    wrapper = (
        "from importlib import import_module\n"
        "from proxy import in_background\n"
        "\n"
        "\n"
        "class VLLM:\n"
        "    def __init__(self, model_name, **kwargs):\n"
        "        self.model_name = model_name\n"
        "        self.kwargs = kwargs\n"
        "\n"
        "    @property\n"
        "    def model(self):\n"
        "        kwargs = self.kwargs.copy()\n"
        "        tensor_parallel_size = kwargs.pop('tensor_parallel_size', 1)\n"
        "\n"
        "        class LLMResource:\n"
        "            def __init__(self_resource):\n"
        "                LLM = import_module('vllm').LLM\n"
        "                self_resource.model = LLM(model=self.model_name, tensor_parallel_size=tensor_parallel_size, **kwargs)\n"
        "\n"
        "        return in_background(LLMResource)\n"
    )
    proxy = "def in_background(resource_cls):\n    return resource_cls()\n"
    run = "from wrapper import VLLM\n\nllm = VLLM('m', return_sampling_mask=True, tensor_parallel_size=1)\nllm.model\n"
    assert check(tmp_path, {"wrapper.py": wrapper, "proxy.py": proxy, "run.py": run}) == [("run.py", 3, "RPL003")]
