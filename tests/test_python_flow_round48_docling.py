"""What held-out round 48's docling cases (tests/data/python_flow/h48_docling_*) taught: a dict comprehension that
keeps only an allowlist's keys of a mapping not known here (docling's `{k: v for k, v in extra_cfg.items() if k in
self._VLLM_ENGINE_KEYS}`) may add only those keys, so what it is spread after stays and a key outside the list stays
absent; a key the call also gives itself stands (the spread holding it too is Python's TypeError); and a request whose
params are made from the method's parameters (`first_input = input_batch[0]`) is read with the method's callers in the
modules near its class, also through another method of the class (`predict` calling `self.predict_batch([input_data])`),
or, for a class deep in a package of folders without `__init__.py`, in the scripts at the package's root that import it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ENGINE = """from typing import Any

from vllm import LLM


class Engine:
    _KEYS = {keys}

    def __init__(self, extra: dict):
        self.extra = extra
        self.llm: Any = None
        self.initialize()

    def initialize(self) -> None:
        load_cfg = {{k: v for k, v in self.extra.items() if {test}}}
        llm_kwargs: dict[str, Any] = {{
            "model": "m",
            "return_sampling_mask": True,
            **load_cfg,
        }}
        self.llm = LLM(**llm_kwargs)
"""


def engine(keys: str = '{"max_model_len", "dtype"}', test: str = "k in self._KEYS") -> dict[str, str]:
    return {"engine.py": ENGINE.format(keys=keys, test=test)}


@pytest.mark.parametrize(
    "test",
    [
        "k in self._KEYS",
        "k in self._KEYS and v is not None",  # another test beside the allowlist only drops more keys
        "v is not None and k in Engine._KEYS",
    ],
)
def test_an_allowlist_without_the_mode_leaves_the_mask_without_it(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, engine(test=test)) == [("engine.py", 18, "RPL003")]


@pytest.mark.parametrize(
    ("keys", "test"),
    [
        ('{"max_model_len", "logprobs_mode"}', "k in self._KEYS"),  # the list lets the mode through: it may be set
        ('{"max_model_len", "dtype"}', "k not in self._KEYS"),  # a denylist lets anything else through
        ('{"max_model_len", "dtype"}', "k in self._KEYS or v"),  # `or`: any key may pass
        ("set(ALLOWED)", "k in self._KEYS"),  # names not known here
    ],
)
def test_a_filter_that_may_let_the_mode_through_keeps_the_launch_open(tmp_path: Path, keys: str, test: str) -> None:
    assert check(tmp_path, engine(keys=keys, test=test)) == []


def test_a_renaming_comprehension_is_not_an_allowlist(tmp_path: Path) -> None:
    files = engine()
    files["engine.py"] = files["engine.py"].replace("{k: v for", '{("logprobs_" + k if k == "mode" else k): v for')
    assert check(tmp_path, files) == []


def test_a_key_the_allowlist_may_pass_replaces_the_one_before_it(tmp_path: Path) -> None:
    # `"logprobs_mode": "raw_logprobs"` written first, then `**load_cfg` whose list holds the mode: it may be replaced
    files = engine(keys='{"logprobs_mode"}')
    files["engine.py"] = files["engine.py"].replace('"model": "m",', '"model": "m",\n            "logprobs_mode": "raw_logprobs",')
    assert check(tmp_path, files) == []


REQUESTS = """from vllm import LLM, SamplingParams

from {base} import Inp


class Engine:
    _SAMPLING_KEYS = {{"top_k", "temperature", "seed"}}

    def __init__(self):
        self.llm = LLM(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def predict_batch(self, input_batch: list[Inp]):
        first_input = input_batch[0]
        params = SamplingParams(
            temperature=first_input.temperature,
            top_k=20,
            **{{k: v for k, v in first_input.extra.items() if k in self._SAMPLING_KEYS}},
        )
        return self.llm.generate([i.prompt for i in input_batch], sampling_params=params)

    def predict(self, input_data: Inp):
        return self.predict_batch([input_data])[0]
"""
INPUT = """from pydantic import BaseModel, Field


class Inp(BaseModel):
    prompt: str = Field(description="p")
    temperature: float = Field(
        default=0.0, description="Sampling temperature"
    )
    extra: dict = Field(default_factory=dict)
"""
DRIVER = """from {base} import Inp
from {eng} import Engine


def main():
    engine = Engine()
    print(engine.predict(Inp(prompt="x"{given})))
"""


def requests(given: str = "") -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/base.py": INPUT,
        "pkg/eng.py": REQUESTS.format(base="pkg.base"),
        "main.py": DRIVER.format(base="pkg.base", eng="pkg.eng", given=given),
    }


def test_a_request_made_from_the_callers_input_reads_the_records_default_in_another_module(tmp_path: Path) -> None:
    assert check(tmp_path, requests()) == [("base.py", 7, "RPL101")]


@pytest.mark.parametrize("given", [", temperature=0.7", ", temperature=0.7, extra={'seed': 1}"])
def test_the_callers_sampled_input_is_clean(tmp_path: Path, given: str) -> None:
    assert check(tmp_path, requests(given)) == []


def test_the_allowlist_spread_cannot_replace_the_temperature_the_call_gives(tmp_path: Path) -> None:
    # `extra` may hold `temperature` only where the call would fail: the 0.0 given stands
    assert check(tmp_path, requests(", extra={'top_k': 5}")) == [("base.py", 7, "RPL101")]


def test_a_greedy_default_params_never_sent_stays_silent(tmp_path: Path) -> None:
    files = requests(", temperature=0.7")
    files["pkg/eng.py"] = files["pkg/eng.py"].replace(
        '        self.llm = LLM(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        '        self.llm = LLM(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
        "        self.sampling_params = SamplingParams(temperature=0.0, max_tokens=4096)\n",
    )
    assert check(tmp_path, files) == []


# the engine deep in a package of folders without `__init__.py`, its driver at the package's root (docling's
# `convert_page.py` four folders above `docling/models/inference_engines/vlm/vllm_engine.py`)
DEEP = "lib/models/engines/vlm"


def deep(driver: str = "main.py", given: str = "", eng: str = "lib.models.engines.vlm.eng") -> dict[str, str]:
    return {
        f"{DEEP}/base.py": INPUT,
        f"{DEEP}/eng.py": REQUESTS.format(base="lib.models.engines.vlm.base"),
        driver: DRIVER.format(base="lib.models.engines.vlm.base", eng=eng, given=given),
    }


@pytest.mark.parametrize("driver", ["main.py", "examples/convert_page.py"])
def test_a_driver_at_a_deep_packages_root_decides_the_request(tmp_path: Path, driver: str) -> None:
    assert check(tmp_path, deep(driver)) == [("base.py", 7, "RPL101")]


def test_a_driver_importing_the_engine_from_a_package_it_is_in_decides_it(tmp_path: Path) -> None:
    # `from lib.models.engines.vlm import Engine`, re-exported by the package's `__init__.py`
    files = deep(eng="lib.models.engines.vlm")
    files[f"{DEEP}/__init__.py"] = "from .eng import Engine\n"
    assert check(tmp_path, files) == [("base.py", 7, "RPL101")]


@pytest.mark.parametrize("given", [", temperature=0.7", ", temperature=1.0, extra={'top_k': 5}"])
def test_a_deep_packages_driver_that_samples_is_clean(tmp_path: Path, given: str) -> None:
    assert check(tmp_path, deep(given=given)) == []


def test_a_root_script_using_another_packages_engine_is_no_caller(tmp_path: Path) -> None:
    # `Engine` of another package (`other/eng.py`) at the root: the deep engine's callers are not known, it stays silent
    files = deep(eng="other.eng")
    files["other/eng.py"] = "class Engine:\n    def predict(self, data):\n        return data\n"
    assert check(tmp_path, files) == []
