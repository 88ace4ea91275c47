"""What held-out round 46's tunix cases (tests/data/python_flow/h46_tunix_*) taught: a dataclass's
`InitVar` fields reach its `__post_init__` as the parameters after `self`, in order, with what the
constructor gave (tunix's `VllmConfig(engine_kwargs={...})` kept as `self._processed_engine_kwargs`),
and are no attributes of the object; and an object of a class of the tree made as `module.Cls(...)`
in a module near it (`vl_sampler = vllm_sampler.VllmSampler(...)`) is the receiver of that class's
methods there, `vl_sampler(...)` its `__call__`, read with that call's arguments (the greedy keyword
default `temperature: float = 0.0` of a call that passes none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

CONFIG = """import dataclasses
from typing import Any, Dict, Optional

from vllm import LLM


@dataclasses.dataclass
class VllmConfig:
    hbm_utilization: float = 0.5
    engine_kwargs: dataclasses.InitVar[Optional[Dict[str, Any]]] = None
    _processed_engine_kwargs: Dict[str, Any] = dataclasses.field(init=False, default_factory=dict)

    def __post_init__(self, engine_kwargs: Optional[Dict[str, Any]]):
        engine_kwargs = engine_kwargs or {}
        self._processed_engine_kwargs = engine_kwargs


def build(config: VllmConfig):
    args = config._processed_engine_kwargs.copy()
    args["gpu_memory_utilization"] = config.hbm_utilization
    return LLM(**args)


build(VllmConfig(engine_kwargs={
    "model": "m",
    "return_sampling_mask": True,
    %s
}))
"""


def test_an_init_var_reaches_the_post_init_hook_with_what_the_constructor_gave(tmp_path: Path) -> None:
    assert check(tmp_path, {"sampler.py": CONFIG % ""}) == [("sampler.py", 26, "RPL003")]


def test_an_init_var_with_the_processed_mode_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"sampler.py": CONFIG % '"logprobs_mode": "processed_logprobs",'}) == []


def test_init_vars_bind_by_position_whatever_the_hook_names_them(tmp_path: Path) -> None:
    source = """from dataclasses import InitVar, dataclass, field

from vllm import LLM


@dataclass
class Config:
    sampling: InitVar[dict | None] = None
    engine: InitVar[dict | None] = None
    kept: dict = field(init=False, default_factory=dict)

    def __post_init__(self, first, second):
        self.kept = second or {}


config = Config({"temperature": 0.7}, {"return_sampling_mask": True})
LLM("m", **config.kept)
"""
    assert check(tmp_path, {"run.py": source}) == [("run.py", 16, "RPL003")]
    swapped = source.replace("self.kept = second or {}", "self.kept = first or {}")
    assert check(tmp_path, {"run.py": swapped}) == []


def test_an_init_var_is_no_attribute_of_the_object(tmp_path: Path) -> None:
    # `config.engine_kwargs` is the class attribute (its default, None) at run time: the mask never reaches the engine
    source = """import dataclasses

from vllm import LLM


@dataclasses.dataclass
class Config:
    engine_kwargs: dataclasses.InitVar[dict] = None
    name: str = "m"

    def __post_init__(self, engine_kwargs):
        print(engine_kwargs)


config = Config(engine_kwargs={"return_sampling_mask": True})
LLM(config.name, **(config.engine_kwargs or {}))
"""
    assert check(tmp_path, {"run.py": source}) == []


SAMPLER = """from vllm import LLM


class Sampler:
    def __init__(self, args):
        self.args = args
        self.llm = LLM(**self.args)

    def {method}(self, prompts, temperature: float = 0.0, top_k: int = None, **kwargs):
        sampling_params = self.llm.get_default_sampling_params()
        sampling_params.temperature = temperature
        if top_k is not None:
            sampling_params.top_k = top_k
        if kwargs:
            sampling_params.update(**kwargs)
        self.sampling_params = sampling_params
        return self.llm.generate(prompts=prompts, sampling_params=self.sampling_params)
"""
DEMO = """from pkg import sampler

ARGS = {{"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}}


def main():
    vl_sampler = sampler.Sampler(ARGS)
    out = vl_sampler{call}(input_strings=["hi"], {passed})
    print(out)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(("method", "call"), [("__call__", ""), ("generate", ".generate")])
def test_a_method_of_an_object_made_as_module_class_in_a_script_is_read_with_its_call(tmp_path: Path, method: str, call: str) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/sampler.py": SAMPLER.format(method=method).replace("prompts, temperature", "input_strings, temperature"),
        "scripts/demo.py": DEMO.format(call=call, passed="top_k=20"),
    }
    files["pkg/sampler.py"] = files["pkg/sampler.py"].replace("prompts=prompts", "prompts=input_strings")
    assert check(tmp_path, files) == [("sampler.py", 9, "RPL101")]


@pytest.mark.parametrize("method", ["__call__", "generate"])
def test_the_call_that_passes_a_temperature_is_clean(tmp_path: Path, method: str) -> None:
    call = "" if method == "__call__" else ".generate"
    files = {
        "pkg/__init__.py": "",
        "pkg/sampler.py": SAMPLER.format(method=method),
        "scripts/demo.py": DEMO.format(call=call, passed="temperature=0.7, top_k=20").replace("input_strings=", "prompts="),
    }
    assert check(tmp_path, files) == []


def test_an_object_of_another_module_s_class_of_that_name_is_not_the_sampler(tmp_path: Path) -> None:
    # `other.Sampler` is another class: its call's greedy default never reaches the engine
    files = {
        "pkg/__init__.py": "",
        "pkg/sampler.py": SAMPLER.format(method="__call__"),
        "pkg/other.py": "class Sampler:\n    def __call__(self, prompts, temperature=0.0):\n        return prompts\n",
        "scripts/demo.py": (
            "from pkg import other, sampler\n"
            "\n"
            "ARGS = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
            "real = sampler.Sampler(ARGS)\n"
            "fake = other.Sampler()\n"
            "real(['hi'], temperature=0.7, top_k=20)\n"
            "fake(['hi'])\n"
        ),
    }
    assert check(tmp_path, files) == []
