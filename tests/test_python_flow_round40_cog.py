"""What held-out round 40's cog-vllm cases (tests/data/python_flow/h40_cogvllm_*) taught: a Cog
predictor's test prediction in `setup()` (`self.predict(**dict(self._defaults, **{...}))`) reads
`predict`'s cog `Input(default=...)` values through a dict comprehension over
`inspect.signature(predict).parameters.items()` (`signature_defaults`); the engine's dict started
as `config.engine_args or {}` (a run-time file's keys) still holds the keys written after it; and a
literal standing in for the value its test reads (`-1 if (top_k or 0) == 0 else top_k`) is
reported where that value is decided."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PREDICTOR = """import inspect

from cog import BasePredictor, Input
from vllm import LLM, SamplingParams


class Predictor(BasePredictor):
    def setup(self):
        engine_args = {engine}
        engine_args["return_sampling_mask"] = True
        engine_args["logprobs_mode"] = "processed_logprobs"
        self.llm = LLM(model="m", **engine_args)
        print(self.predict(**dict(self._defaults, **{{{overrides}}})))

    def predict(
        self,
        prompt: str = Input(description="Prompt", default=""),
        temperature: float = Input(description="Temperature", default={temperature}),
        top_k: int = {top_k},
    ) -> str:
        params = SamplingParams(temperature=temperature, top_k=(-1 if (top_k or 0) == 0 else top_k))
        return self.llm.generate([prompt], params)[0].outputs[0].text

{defaults}
"""
COG_DEFAULTS = """    _defaults = {
        key: param.default.default
        for key, param in inspect.signature(predict).parameters.items()
        if hasattr(param.default, "default")
    }
"""
OVERRIDE_LINE, TOP_K_LINE = 13, 19


def predictor(
    top_k: str = 'Input(description="Top k", default=50)',
    temperature: str = "0.6",
    overrides: str = '"prompt": "hi"',
    engine: str = "self.load() or {}",
    defaults: str = COG_DEFAULTS,
) -> dict[str, str]:
    text = PREDICTOR.format(engine=engine, overrides=overrides, temperature=temperature, top_k=top_k, defaults=defaults)
    return {"predict.py": text}


def test_cog_input_defaults_as_upstream_are_clean(tmp_path: Path) -> None:
    assert check(tmp_path, predictor()) == []


@pytest.mark.parametrize("top_k", ['Input(description="Top k", default=0)', 'Input(0, description="Top k")'])
def test_a_zero_top_k_input_default_is_reported_at_the_default(tmp_path: Path, top_k: str) -> None:
    # the test prediction sends top_k=-1 (0 turned into -1): the user's fix is the Input's default
    assert check(tmp_path, predictor(top_k=top_k)) == [("predict.py", TOP_K_LINE, "RPL102")]


def test_a_greedy_override_of_the_test_prediction_is_reported_at_the_override(tmp_path: Path) -> None:
    found = check(tmp_path, predictor(overrides='"prompt": "hi", "temperature": 0'))
    assert found == [("predict.py", OVERRIDE_LINE, "RPL101")]


def test_a_greedy_input_default_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, predictor(temperature="0.0")) == [("predict.py", 18, "RPL101")]


def test_the_engine_dict_started_from_a_known_empty_dict_is_judged_the_same(tmp_path: Path) -> None:
    found = check(tmp_path, predictor(engine="{}", top_k='Input(description="Top k", default=-1)'))
    assert found == [("predict.py", TOP_K_LINE, "RPL102")]


def test_plain_defaults_read_off_the_signature(tmp_path: Path) -> None:
    plain = (
        "    _defaults = {\n"
        "        name: p.default\n"
        "        for name, p in inspect.signature(predict).parameters.items()\n"
        "        if p.default is not inspect.Parameter.empty\n"
        "    }\n"
    )
    found = check(tmp_path, predictor(top_k="-1", defaults=plain))
    assert found == [("predict.py", TOP_K_LINE, "RPL102")]
    # the Input objects themselves (`p.default`) are no numbers: the test prediction's values are not known
    assert check(tmp_path, predictor(top_k='Input(description="Top k", default=-1)', defaults=plain)) == []


def test_a_default_the_filter_cannot_decide_keeps_that_parameter_open(tmp_path: Path) -> None:
    # `pick_top_k()` may or may not return an object with `.default`: top_k is not known, nothing is guessed
    assert check(tmp_path, predictor(top_k="pick_top_k()")) == []


def test_without_a_test_prediction_the_inputs_come_from_each_request(tmp_path: Path) -> None:
    files = predictor(top_k='Input(description="Top k", default=0)')
    files["predict.py"] = files["predict.py"].replace(
        'print(self.predict(**dict(self._defaults, **{"prompt": "hi"})))', "print(self._defaults)"
    )
    assert check(tmp_path, files) == []


def test_the_signature_of_the_bound_method_read_in_setup(tmp_path: Path) -> None:
    # `from inspect import signature`, the comprehension written in `setup` over `self.predict` (no `self` parameter)
    files = predictor(top_k='Input(description="Top k", default=0)', defaults="")
    text = files["predict.py"].replace("import inspect\n", "from inspect import signature\n")
    local = (
        "        defaults = {k: p.default.default for k, p in signature(self.predict).parameters.items()"
        ' if hasattr(p.default, "default")}\n'
        '        print(self.predict(**{**defaults, "prompt": "hi"}))\n'
    )
    files["predict.py"] = text.replace('        print(self.predict(**dict(self._defaults, **{"prompt": "hi"})))\n', local)
    assert check(tmp_path, files) == [("predict.py", TOP_K_LINE + 1, "RPL102")]
