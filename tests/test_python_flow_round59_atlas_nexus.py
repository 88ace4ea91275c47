"""What held-out round 59's IBM/ai-atlas-nexus cases made the value flow read: calling a
`TypedDict` class makes a plain dict of the keywords given, whatever defaults its body writes
(params.py's `VLLMInferenceEngineParams(TypedDict)` with `top_k: int = -1`): a request spread from
it leaves out what the call leaves out, and sets what the call sets."""

from __future__ import annotations

from replaylint.frontends.python import extract
from replaylint.source import ExtractContext, SourceFile

HEAD = """from typing import Optional, TypedDict

from vllm import LLM, SamplingParams


class VLLMInferenceEngineParams(TypedDict):
    temperature: float = 1.0
    top_k: int = -1
    max_tokens: Optional[int] = 100


llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
"""


def request(body: str) -> tuple[bool, dict]:
    (launch,) = extract(SourceFile("t.py", HEAD + body), ExtractContext())
    (sent,) = launch.requests
    return sent.open_ended, {name: setting.value for name, setting in sent.settings.items()}


def test_a_typed_dict_call_applies_no_default_of_its_body() -> None:
    # the body's `top_k: int = -1` and `max_tokens = 100` never reach the dict
    body = 'llm.generate(["hi"], SamplingParams(**VLLMInferenceEngineParams(max_tokens=1000, temperature=0.7)))\n'
    assert request(body) == (False, {"max_tokens": 1000, "temperature": 0.7})


def test_a_typed_dict_call_keeps_what_it_is_given() -> None:
    body = 'llm.generate(["hi"], SamplingParams(**VLLMInferenceEngineParams(temperature=0.7, top_k=50)))\n'
    assert request(body) == (False, {"temperature": 0.7, "top_k": 50})


def test_a_typed_dict_held_in_a_name_then_spread() -> None:
    # the real spelling: the parameters built once, kept, then spread into the request
    body = 'params = VLLMInferenceEngineParams(temperature=0.7)\nllm.generate(["hi"], SamplingParams(**params))\n'
    assert request(body) == (False, {"temperature": 0.7})


def test_a_typed_dict_spread_from_elsewhere_stays_open() -> None:
    body = 'llm.generate(["hi"], SamplingParams(**VLLMInferenceEngineParams(**USER_PARAMS)))\n'
    assert request(body)[0] is True
