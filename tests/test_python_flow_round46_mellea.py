"""What held-out round 46's mellea cases (tests/data/python_flow/h46_mellea_*) taught: options kept by
the fields of the vLLM class they are for (`{f.name: opts[f.name] for f in dataclasses.fields(cls) if
f.name in opts}`, `msgspec.structs.fields(cls)` for `SamplingParams`; `field_filters`), keys renamed in
place by a loop over a table of names (`renamed_keys`), sentinel keys dropped by `not k.startswith(...)`,
a `try:` return whose handler returns the same mapping, a request sent from a function nested in a
method, and an example script in a folder of its own that imports the namespace package whose class
starts the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MODEL_OPTIONS = """from typing import Any


class ModelOption:
    TEMPERATURE = "@@@temperature@@@"
    MAX_NEW_TOKENS = "@@@max_new_tokens@@@"

    @staticmethod
    def replace_keys(options: dict, from_to: dict[str, str]) -> dict[str, Any]:
        new_options = dict(options)
        for old_key, new_key in from_to.items():
            if old_key in new_options:
                value = new_options.pop(old_key)
                if new_key not in new_options:
                    new_options[new_key] = value
        return new_options

    @staticmethod
    def remove_special_keys(model_options: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in model_options.items() if not k.startswith("@@@")}
"""

BACKEND = """import asyncio
import dataclasses

import msgspec
import vllm

from .model_options import ModelOption


class LocalVLLMBackend:
    def __init__(self, model_id, *, model_options=None):
        self.model_options = model_options if model_options is not None else {{}}
        self.from_mellea = {{ModelOption.MAX_NEW_TOKENS: "max_tokens", ModelOption.TEMPERATURE: "temperature"}}
        engine_args = self._specific(dict(self.model_options), vllm.AsyncEngineArgs)
        engine_args["max_model_len"] = engine_args.get("max_model_len", 16384)
        self._engine = vllm.AsyncLLMEngine.from_engine_args(vllm.AsyncEngineArgs(model=model_id, **engine_args))

    async def generate_from_raw(self, prompts):
        sampling_params = vllm.SamplingParams(**self._specific(dict(self.model_options), vllm.SamplingParams))

        async def generate(prompt, request_id):
            async for output in self._engine.generate(request_id=request_id, prompt=prompt, sampling_params=sampling_params):
                return output.outputs[0].text

        return await asyncio.gather(*[generate(p, str(i)) for i, p in enumerate(prompts)])

    def _specific(self, model_options, cls):
        backend_specific = ModelOption.replace_keys(model_options, self.from_mellea)
        backend_specific = ModelOption.remove_special_keys(backend_specific)
{filtered}
"""
TRY_BOTH = """        try:
            return {field.name: backend_specific[field.name] for field in dataclasses.fields(cls) if field.name in backend_specific}
        except TypeError:
            return {field.name: backend_specific[field.name] for field in msgspec.structs.fields(cls) if field.name in backend_specific}"""
REQUEST_LINE = 19

EXAMPLE = """import asyncio

from mellea.backends.model_options import ModelOption
from mellea.backends.vllm import LocalVLLMBackend

backend = LocalVLLMBackend(
    "ibm-granite/granite-3.3-2b-instruct",
    model_options={{
        "return_sampling_mask": True,
{options}
    }},
)
print(asyncio.run(backend.generate_from_raw(["What is 1+1?"])))
"""
MASK_LINE = 9


def tree(options: str, filtered: str = TRY_BOTH) -> dict[str, str]:
    return {
        "mellea/backends/model_options.py": MODEL_OPTIONS,
        "mellea/backends/vllm.py": BACKEND.format(filtered=filtered),
        "docs/examples/vllm/raw_generation.py": EXAMPLE.format(options=options),
    }


PROCESSED = '        "logprobs_mode": "processed_logprobs",\n'
SAMPLED = '        ModelOption.TEMPERATURE: 0.7,\n        "top_k": 20,'


def test_replay_options_through_both_field_filters_are_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree(PROCESSED + SAMPLED)) == []


def test_the_mask_without_a_mode_reaches_the_engine_through_its_fields(tmp_path: Path) -> None:
    # `top_k` and the renamed temperature are no fields of `AsyncEngineArgs`: dropped, not left open
    assert check(tmp_path, tree(SAMPLED)) == [("raw_generation.py", MASK_LINE, "RPL003")]


def test_a_request_without_top_k_is_reported_where_it_is_built(tmp_path: Path) -> None:
    # the engine's keys (`max_model_len`, the mask, the mode) are no fields of `SamplingParams`: dropped
    found = check(tmp_path, tree(PROCESSED + '        ModelOption.TEMPERATURE: 0.7,\n        "max_model_len": 2048,'))
    assert found == [("vllm.py", REQUEST_LINE, "RPL102")]


def test_a_greedy_temperature_under_the_sentinel_key_is_renamed_into_the_request(tmp_path: Path) -> None:
    found = check(tmp_path, tree(PROCESSED + '        ModelOption.TEMPERATURE: 0.0,\n        "top_k": 20,'))
    assert found == [("raw_generation.py", MASK_LINE + 2, "RPL101")]


def test_a_sentinel_key_without_a_mapping_is_dropped(tmp_path: Path) -> None:
    # `@@@stream@@@` is no name of the table: `remove_special_keys` drops it, the request stays judged
    found = check(tmp_path, tree(PROCESSED + '        "@@@stream@@@": True,\n        ModelOption.TEMPERATURE: 0.7,'))
    assert found == [("vllm.py", REQUEST_LINE, "RPL102")]


def test_a_field_only_later_releases_declare_leaves_the_request_open(tmp_path: Path) -> None:
    # `watermarking` is a field of 0.31.0 and 0.34.0 only: whether it passes depends on the release
    found = check(tmp_path, tree(PROCESSED + '        ModelOption.TEMPERATURE: 0.7,\n        "watermarking": None,'))
    assert found == []


@pytest.mark.parametrize(
    "filtered",
    [
        # `from dataclasses import fields` spelling, a single return (a dataclass, as vLLM's `SamplingParams` is not:
        # the filter still keeps the names it declares)
        "        from dataclasses import fields\n\n"
        "        return {f.name: backend_specific[f.name] for f in fields(cls) if f.name in backend_specific}",
        "        return {f.name: backend_specific[f.name] for f in msgspec.structs.fields(cls) if f.name in backend_specific}",
    ],
)
def test_other_spellings_of_the_field_filter(tmp_path: Path, filtered: str) -> None:
    assert check(tmp_path, tree(SAMPLED, filtered)) == [("raw_generation.py", MASK_LINE, "RPL003")]


def test_a_handler_returning_another_mapping_leaves_the_result_unknown(tmp_path: Path) -> None:
    other = TRY_BOTH.replace(
        "for field in msgspec.structs.fields(cls) if field.name in backend_specific}", "for field in msgspec.structs.fields(cls)}"
    )
    assert check(tmp_path, tree(SAMPLED, other)) == []


def test_a_filter_over_another_class_is_not_read(tmp_path: Path) -> None:
    # the fields of a class replaylint does not know: which options pass is not known, nothing is guessed
    text = tree(SAMPLED)
    text["mellea/backends/vllm.py"] = text["mellea/backends/vllm.py"].replace(
        "self._specific(dict(self.model_options), vllm.AsyncEngineArgs)", "self._specific(dict(self.model_options), MyArgs)"
    )
    assert check(tmp_path, text) == []
