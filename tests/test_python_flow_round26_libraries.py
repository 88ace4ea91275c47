"""What held-out round 26 (tests/data/python_flow/h26_*) made the value flow follow in libraries'
request helpers.

GPTQModel's `convert_hf_params_to_vllm` writes each HF keyword onto a default `SamplingParams()`
only `if hf_params.get(key, None):`. A float the caller gives decides that test as Python does
(0.7 is written, 0.0 is not), and `if not isinstance(sampling_params, SamplingParams):` of a
`kwargs.get("sampling_params")` the caller does not give holds (None is no instance of vLLM's
class). A value from outside the tree keeps the test open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

HELPERS = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def convert(hf_params):\n"
    "    sampling_params = SamplingParams()\n"  # line 5
    "    if hf_params.get('temperature', None):\n"
    "        sampling_params.temperature = hf_params.get('temperature')\n"  # line 7
    "    if hf_params.get('top_k', None):\n"
    "        sampling_params.top_k = hf_params.get('top_k')\n"
    "    return sampling_params\n"
    "\n"
    "\n"
    "def load(model, **kwargs):\n"
    "    return LLM(model=model, **kwargs)\n"
    "\n"
    "\n"
    "def generate(model, **kwargs):\n"
    "    prompts = kwargs.pop('prompts', None)\n"
    "    sampling_params = kwargs.get('sampling_params')\n"
    "    if not isinstance(sampling_params, SamplingParams):\n"
    "        hf_params = {key: kwargs.get(key) for key in ['temperature', 'top_k']}\n"
    "        sampling_params = convert({k: v for k, v in hf_params.items() if v is not None})\n"
    "    return model.generate(prompts=prompts, sampling_params=sampling_params)\n"
)
CALLER = (
    "import os\n"
    "\n"
    "from helpers import generate, load\n"
    "\n"
    "model = load('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "generate(model, prompts=['p'], {keywords})\n"
)


def _check(tmp_path: Path, keywords: str) -> list[tuple[str, int, str]]:
    return check(tmp_path, {"helpers.py": HELPERS, "run.py": CALLER.format(keywords=keywords)})


@pytest.mark.parametrize("keywords", ["temperature=0.7", "temperature=0.7, top_p=0.9", "temperature=1.5, top_k=None"])
def test_a_default_request_whose_top_k_no_truthy_keyword_writes(tmp_path: Path, keywords: str) -> None:
    assert _check(tmp_path, keywords) == [("helpers.py", 5, "RPL102")]


@pytest.mark.parametrize("keywords", ["temperature=0.0, top_k=50", "temperature=0.7, top_k=40", "top_k=20"])
def test_a_falsy_float_is_not_written_and_a_truthy_top_k_is(tmp_path: Path, keywords: str) -> None:
    assert _check(tmp_path, keywords) == []


@pytest.mark.parametrize(
    "test",
    ["not isinstance(params, SamplingParams)", "not isinstance(params, vllm.SamplingParams)", "params is None"],
)
def test_a_request_the_caller_does_not_give_is_built_by_default(tmp_path: Path, test: str) -> None:
    helper = (
        "import vllm\n"
        "from vllm import LLM, SamplingParams\n"
        "\n"
        "\n"
        "def generate(llm, prompts, **kwargs):\n"
        "    params = kwargs.get('sampling_params')\n"
        f"    if {test}:\n"
        "        params = SamplingParams(temperature=0.7)\n"  # line 8
        "    return llm.generate(prompts, params)\n"
        "\n"
        "\n"
        "generate(LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs'), ['p'])\n"
    )
    assert check(tmp_path, {"run.py": helper}) == [("run.py", 8, "RPL102")]


@pytest.mark.parametrize(
    "keywords",
    [
        "temperature=float(os.environ['T'])",  # a value from outside: the write may happen or not
        "sampling_params=os.environ['PARAMS']",  # the caller's own request, not read here
    ],
)
def test_a_value_from_outside_keeps_the_request_open(tmp_path: Path, keywords: str) -> None:
    assert _check(tmp_path, keywords) == []


# cruxeval's `HfArgumentParser(EvalArguments)` with `add_argument`s, read by `parse_args()`: a namespace of the
# dataclass's fields at their defaults and the added options, the finding at the field that decides.

ARGUMENTS = (
    "from dataclasses import dataclass, field\n"
    "from typing import Optional\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class EvalArguments:\n"
    "    temperature: Optional[float] = field(default=0.2, metadata={{'help': 'Sampling temperature.'}})\n"
    "    top_k: Optional[int] = field(default={top_k}, metadata={{'help': 'Top-k.'}})\n"  # line 8
    "\n"
    "\n"
    "@dataclass\n"
    "class ModelArguments:\n"
    "    model: str = 'm'\n"
)
MAIN = (
    "import sys\n"
    "\n"
    "from transformers import HfArgumentParser\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "from arguments import EvalArguments, ModelArguments\n"
    "\n"
    "\n"
    "def parse_args():\n"
    "    parser = HfArgumentParser({classes})\n"
    "    parser.add_argument('--max_length_generation', type=int, default=1024)\n"  # line 11
    "    {extra}\n"
    "    return parser.parse_args({argv})\n"
    "\n"
    "\n"
    "args = parse_args()\n"
    "llm = LLM(args.model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "params = SamplingParams(temperature=args.temperature, top_k=args.top_k, max_tokens=args.max_length_generation)\n"
    "llm.generate(['p'], params)\n"
)


def _parsed(tmp_path: Path, top_k: str = "-1", classes: str = "(EvalArguments, ModelArguments)", extra: str = "", argv: str = ""):
    main = MAIN.format(classes=classes, extra=extra or "pass", argv=argv)
    return check(tmp_path, {"arguments.py": ARGUMENTS.format(top_k=top_k), "main.py": main})


@pytest.mark.parametrize("top_k", ["-1", "0"])
def test_a_dataclass_field_default_decides_the_namespace_parse_args_gives(tmp_path: Path, top_k: str) -> None:
    assert _parsed(tmp_path, top_k) == [("arguments.py", 8, "RPL102")]


@pytest.mark.parametrize(("default", "expected"), [("-1", [("main.py", 12, "RPL102")]), ("40", [])])
def test_an_option_add_argument_adds_decides_too(tmp_path: Path, default: str, expected: list) -> None:
    extra = f"parser.add_argument('--top_k', type=int, default={default}); parser.add_argument('--temperature', default=0.7)"
    assert _parsed(tmp_path, classes="ModelArguments", extra=extra) == expected


@pytest.mark.parametrize(
    ("extra", "argv"),
    [
        ("pass", "sys.argv[2:]"),  # a command line from the run
        ("add_more(parser)", ""),  # options added by a function not read: any may be a `--top_k` default
    ],
)
def test_a_namespace_not_read_whole_stays_open(tmp_path: Path, extra: str, argv: str) -> None:
    extra = "from helpers import add_more; add_more(parser)" if extra == "add_more(parser)" else extra
    assert _parsed(tmp_path, extra=extra, argv=argv) == []


# lagent: a script writes the runner variable at its top level, then imports the module whose class (or
# function) builds the engine and calls it there: the write ran before the engine starts (RPL206 at it).

WRAPPER_CLASS = (
    "class VllmModel:\n"
    "    def __init__(self, path, tp=1, vllm_cfg=dict(), **kwargs):\n"
    "        from vllm import LLM\n"
    "        self.model = LLM(model=path, tensor_parallel_size=tp, **vllm_cfg)\n"
)
WRAPPER_FUNCTION = "from vllm import LLM\n\n\ndef VllmModel(path, vllm_cfg):\n    return LLM(model=path, **vllm_cfg)\n"
SCRIPT = (
    "import os\n"
    "\n"
    "{before}\n"  # line 3
    "from vllm_wrapper import VllmModel  # noqa: E402\n"
    "\n"
    "llm = VllmModel(path='m', vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'))\n"
    "{after}\n"
)


def _script(tmp_path: Path, before: str, after: str = "", wrapper: str = WRAPPER_CLASS, **more: str):
    return check(tmp_path, {"vllm_wrapper.py": wrapper, "run_agent.py": SCRIPT.format(before=before, after=after), **more})


@pytest.mark.parametrize(
    "before",
    [
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'",
        "os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')",
        "os.environ.update({'VLLM_USE_V2_MODEL_RUNNER': '0'})",
    ],
)
@pytest.mark.parametrize("wrapper", [WRAPPER_CLASS, WRAPPER_FUNCTION])
def test_the_runner_variable_an_importer_writes_before_the_call(tmp_path: Path, before: str, wrapper: str) -> None:
    assert _script(tmp_path, before, wrapper=wrapper) == [("run_agent.py", 3, "RPL206")]


@pytest.mark.parametrize(
    ("before", "after", "more"),
    [
        ("pass", "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'", {}),  # written after the engine started
        ("if os.environ.get('LEGACY'):\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'", "", {}),  # a branch from outside
        ("os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\ndel os.environ['VLLM_USE_V2_MODEL_RUNNER']", "", {}),
    ],
)
def test_the_runner_variable_the_importer_leaves_otherwise(tmp_path: Path, before: str, after: str, more: dict) -> None:
    assert _script(tmp_path, before, after, **more) == []


def test_a_module_the_importer_imports_after_its_write_runs_before_the_call(tmp_path: Path) -> None:
    settings = "import os\n\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '1'\n"  # a warning with replay, at its own line
    before = "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\nimport settings  # noqa: E402"
    assert _script(tmp_path, before, **{"settings.py": settings}) == [("settings.py", 3, "RPL206")]


# lagent's `BaseLLM` (another module) keeps the sampling keywords in `self.gen_params`, a dict its `__init__`
# builds from keyword defaults the construction may pass through `**kwargs`; `self.update_gen_params(**kwargs)`
# copies and updates it, and the subclass spreads it into `SamplingParams(**gen_params)`.

BASE = (
    "from copy import copy\n"
    "\n"
    "\n"
    "class BaseLLM:\n"
    "    def __init__(self, path, *, top_k=40, temperature=0.8, repetition_penalty=1.0):\n"
    "        self.path = path\n"
    "        self.gen_params = dict(top_k=top_k, temperature=temperature, repetition_penalty=repetition_penalty)\n"
    "\n"
    "    def update_gen_params(self, **kwargs):\n"
    "        gen_params = copy(self.gen_params)\n"
    "        gen_params.update(kwargs)\n"
    "        return gen_params\n"
)
MODEL = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "from base_llm import BaseLLM\n"
    "\n"
    "\n"
    "class VllmModel(BaseLLM):\n"
    "    def __init__(self, path, vllm_cfg=dict(), **kwargs):\n"
    "        super().__init__(path=path, **kwargs)\n"
    "        self.model = LLM(model=self.path, **vllm_cfg)\n"
    "{extra}"
    "\n"
    "    def generate(self, inputs, **kwargs):\n"
    "        sampling_config = SamplingParams({spread})\n"
    "        return self.model.generate(inputs, sampling_params=sampling_config)\n"
    "\n"
    "\n"
    "llm = VllmModel(\n"
    "    'm',\n"
    "    vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),\n"
    "    repetition_penalty=1.02,\n"  # line 20
    ")\n"
    "llm.generate('x')\n"
)


def _model(tmp_path: Path, spread: str = "**self.update_gen_params(**kwargs)", extra: str = ""):
    return check(tmp_path, {"base_llm.py": BASE, "model.py": MODEL.format(spread=spread, extra=extra)})


@pytest.mark.parametrize(
    "spread", ["**self.update_gen_params(**kwargs)", "**self.gen_params", "repetition_penalty=self.gen_params['repetition_penalty']"]
)
def test_a_base_class_mapping_of_another_module_reaches_the_request(tmp_path: Path, spread: str) -> None:
    expected = [("model.py", 19, "RPL302")] if spread.startswith("**") else [("model.py", 12, "RPL102"), ("model.py", 19, "RPL302")]
    assert _model(tmp_path, spread) == expected


@pytest.mark.parametrize(
    "extra",
    [
        "\n    def tune(self):\n        self.gen_params['repetition_penalty'] = 1.0\n",  # a method changes the mapping
        "\n    def tune(self, more):\n        self.gen_params.update(more)\n",
    ],
)
def test_a_mapping_a_subclass_changes_or_a_method_it_overrides_stays_open(tmp_path: Path, extra: str) -> None:
    assert _model(tmp_path, extra=extra) == []


def test_the_subclass_own_method_wins_over_the_base_one(tmp_path: Path) -> None:
    extra = "\n    def update_gen_params(self, **kwargs):\n        return dict(kwargs)\n"  # no base keyword reaches the request
    assert _model(tmp_path, extra=extra) == [("model.py", 15, "RPL102")]


# A project subclass of lagent's `VllmModel` (another module) made in the script: `llm.generate(...)` runs the
# base's method on it, with what the subclass's `super().__init__(...)` passed.

WRAPPER = MODEL.split("\n\nllm = ")[0].format(spread="**self.update_gen_params(**kwargs)", extra="") + "\n"
SUBCLASS = (
    "import os\n"
    "\n"
    "from vllm_wrapper import VllmModel\n"
    "\n"
    "\n"
    "{cls}\n"
    "\n"
    "\n"
    "llm = ReplayVllmModel(\n"
    "    'm',\n"
    "    temperature={temperature},\n"  # line 14 (the class spans 4 lines)
    "    top_k=20)\n"
    "llm.generate('x')\n"
)
_OWN_INIT = (
    "class ReplayVllmModel(VllmModel):\n"
    "    def __init__(self, path, **kwargs):\n"
    "        kwargs.setdefault('vllm_cfg', dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'))\n"
    "        super().__init__(path, **kwargs)"
)
_OVERRIDES = (
    _OWN_INIT + "\n\n    def generate(self, inputs, **kwargs):\n"
    "        from vllm import SamplingParams\n"
    "        return self.model.generate(inputs, SamplingParams(temperature=0.7, top_k=40))"
)


def _subclass(tmp_path: Path, cls: str = _OWN_INIT, temperature: str = "0.0"):
    files = {"base_llm.py": BASE, "vllm_wrapper.py": WRAPPER, "run_agent.py": SUBCLASS.format(cls=cls, temperature=temperature)}
    return check(tmp_path, files)


def test_a_subclass_object_runs_the_base_request_with_its_keywords(tmp_path: Path) -> None:
    assert _subclass(tmp_path) == [("run_agent.py", 14, "RPL101")]


@pytest.mark.parametrize(("cls", "temperature"), [(_OVERRIDES, "0.0"), (_OWN_INIT, "float(os.environ['T'])")])
def test_a_subclass_that_overrides_the_method_or_a_value_from_outside_stays_silent(tmp_path: Path, cls: str, temperature: str) -> None:
    assert _subclass(tmp_path, cls, temperature) == []
