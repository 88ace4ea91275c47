"""What held-out round 43's Qwen wrapper case (tests/data/python_flow/h43_qwen_vllm_wrapper_kwargs_getattr_mask_clean)
taught: `getattr(kwargs, 'return_sampling_mask', False)` of a `**kwargs` parameter (or of a name bound only to a
dict display or `dict(...)`) is always its default: a dict's keys are no attributes. A namespace made of the
same keys (`SimpleNamespace(**kwargs)`), or the name rebound to one, still gives the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

WRAPPER = """from types import SimpleNamespace

from vllm import LLM


class Wrapper:
    def __init__(self, model, **kwargs):
{body}
        self.llm = LLM(model=model, return_sampling_mask=mask)


Wrapper("m", return_sampling_mask={given})
"""
BODY_LINE = 8


def wrapper(body: str, given: str = "True") -> dict[str, str]:
    return {"wrapper.py": WRAPPER.format(body="\n".join("        " + line for line in body.splitlines()), given=given)}


@pytest.mark.parametrize(
    "body",
    [
        "mask = getattr(kwargs, 'return_sampling_mask', False)",
        "opts = {'return_sampling_mask': True}\nmask = getattr(opts, 'return_sampling_mask', False)",
        "opts = dict(return_sampling_mask=True)\nmask = getattr(opts, 'return_sampling_mask', False)",
        "opts = dict(kwargs)\nmask = getattr(opts, 'return_sampling_mask', False)",
        "kwargs = {**kwargs, 'seed': 0}\nmask = getattr(kwargs, 'return_sampling_mask', False)",
    ],
)
def test_getattr_of_a_dict_is_its_default_whatever_the_keys(tmp_path: Path, body: str) -> None:
    # the caller passes return_sampling_mask=True, but the dict has no such attribute: no replay engine
    assert check(tmp_path, wrapper(body)) == []


def test_a_true_default_is_the_mask_even_when_the_caller_turns_it_off(tmp_path: Path) -> None:
    found = check(tmp_path, wrapper("mask = getattr(kwargs, 'return_sampling_mask', True)", given="False"))
    assert found == [("wrapper.py", BODY_LINE, "RPL003")]


@pytest.mark.parametrize(
    "body",
    [
        "mask = kwargs.get('return_sampling_mask', False)",
        "mask = kwargs['return_sampling_mask']",
        "ns = SimpleNamespace(**kwargs)\nmask = getattr(ns, 'return_sampling_mask', False)",
        "kwargs = SimpleNamespace(**kwargs)\nmask = getattr(kwargs, 'return_sampling_mask', False)",
    ],
)
def test_the_key_read_as_a_key_or_off_a_namespace_is_the_callers(tmp_path: Path, body: str) -> None:
    caller_line = BODY_LINE + len(body.splitlines()) + 3
    assert check(tmp_path, wrapper(body)) == [("wrapper.py", caller_line, "RPL003")]


QWEN = """import vllm
from packaging import version


class vLLMWrapper:
    def __init__(self, model_dir: str, tensor_parallel_size: int = 1, **model_kwargs):
        from vllm import LLM

        quantization = getattr(model_kwargs, 'quantization', None)
        return_sampling_mask = getattr(model_kwargs, 'return_sampling_mask', {default})
        self.model = LLM(model=model_dir, tensor_parallel_size=tensor_parallel_size, quantization=quantization,
                         return_sampling_mask=return_sampling_mask)


if __name__ == '__main__':
    model = vLLMWrapper('Qwen/Qwen-7B-Chat', tensor_parallel_size=2, quantization='gptq', return_sampling_mask=True)
"""


def test_qwens_spelling_with_an_import_inside_init(tmp_path: Path) -> None:
    assert check(tmp_path, {"vllm_wrapper.py": QWEN.format(default="False")}) == []
    assert check(tmp_path, {"vllm_wrapper.py": QWEN.format(default="True")}) == [("vllm_wrapper.py", 10, "RPL003")]


def test_a_name_that_is_also_a_dict_method_is_not_guessed(tmp_path: Path) -> None:
    # `getattr(kwargs, 'copy', None)` is the dict's method, not the default: nothing is read as the mask
    body = "mask = getattr(kwargs, 'copy', True)"
    assert check(tmp_path, wrapper(body)) == []
