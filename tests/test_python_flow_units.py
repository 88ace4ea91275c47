"""The value-flow reader's semantics, one construct at a time: what reaches the engine, what stays
unknown, and what leaves the launch open."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from replaylint.frontends import ExtractContext, SourceFile
from replaylint.frontends.python import extract
from replaylint.frontends.python.flow.members import _writes_super_init
from replaylint.model import UNKNOWN

HEAD = "from vllm import LLM\n"


def launch(body: str):
    found = extract(SourceFile("t.py", HEAD + body), ExtractContext())
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    "body, expected",
    [
        ("kw = {'a': 1, 'return_sampling_mask': True}\nkw.pop('a')\nLLM('m', **kw)\n", {"model": "m", "return_sampling_mask": True}),
        ("kw = {'a': 1, 'return_sampling_mask': True}\ndel kw['a']\nLLM('m', **kw)\n", {"model": "m", "return_sampling_mask": True}),
        ("kw = {'a': 1, 'return_sampling_mask': True}\nn = kw.pop('a')\nLLM('m', **kw)\n", {"model": "m", "return_sampling_mask": True}),
        (  # OpenRLHF's actor: what `__init__` pops from the keywords the caller passed does not reach the engine
            "class Actor:\n    def __init__(self, *args, **kwargs):\n        self.n = kwargs.pop('num_actors')\n"
            "        self.llm = LLM(*args, **kwargs)\n\n\nActor('m', num_actors=2, return_sampling_mask=True)\n",
            {"model": "m", "return_sampling_mask": True},
        ),
        (
            "kw = {'return_sampling_mask': True}\nkw |= {'seed': 3}\nLLM('m', **kw)\n",
            {"model": "m", "return_sampling_mask": True, "seed": 3},
        ),
        (
            "BASE = {'seed': 1}\nLLM('m', **(BASE | {'return_sampling_mask': True}))\n",
            {"model": "m", "seed": 1, "return_sampling_mask": True},
        ),
        (
            "import copy\nBASE = {'seed': 1}\nkw = copy.deepcopy(BASE)\nkw['return_sampling_mask'] = True\nLLM('m', **kw)\n",
            {"model": "m", "seed": 1, "return_sampling_mask": True},
        ),
        (
            "BASE = {'seed': 1}\nkw = BASE.copy()\nkw.update({'return_sampling_mask': True})\nLLM('m', **kw)\n",
            {"model": "m", "seed": 1, "return_sampling_mask": True},
        ),
        (
            "a = {'seed': 1}\nb = {'return_sampling_mask': True}\nLLM('m', **dict(**a, **b))\n",
            {"model": "m", "seed": 1, "return_sampling_mask": True},
        ),
        (
            "kw = {'seed': 1}\nkw.setdefault('seed', 2)\nkw.setdefault('return_sampling_mask', True)\nLLM('m', **kw)\n",
            {"model": "m", "seed": 1, "return_sampling_mask": True},
        ),
    ],
)
def test_dict_building_reaches_the_engine(body: str, expected: dict) -> None:
    found = launch(body)
    assert {name: setting.value for name, setting in found.settings.items()} == expected
    assert not found.open_ended


def test_a_write_after_the_call_does_not_count() -> None:
    found = launch("kw = {'return_sampling_mask': True}\nllm = LLM('m', **kw)\nkw['logprobs_mode'] = 'raw_logprobs'\n")
    assert "logprobs_mode" not in found.settings


def test_a_name_bound_on_one_path_only_is_unknown() -> None:
    found = launch(
        "import sys\nmode = 'processed_logprobs'\nif sys.argv:\n    mode = 'raw_logprobs'\nLLM('m', return_sampling_mask=True, logprobs_mode=mode)\n"
    )
    assert found.value("logprobs_mode") is UNKNOWN


def test_a_dict_handed_to_an_unknown_call_is_open() -> None:
    found = launch("import helpers\nkw = {'return_sampling_mask': True}\nhelpers.tune(kw)\nprint(kw)\nLLM('m', **kw)\n")
    assert found.open_ended and any("helpers.tune(kw)" in reason for reason in found.open_reasons)


def test_a_branch_decided_by_a_constant_is_not_a_condition() -> None:
    found = launch(
        "DEBUG = True\nkw = {'return_sampling_mask': True}\nif DEBUG:\n    kw['enforce_eager'] = True\nelse:\n    kw['seed'] = 1\nLLM('m', **kw)\n"
    )
    assert found.condition is None
    assert found.value("enforce_eager") is True and "seed" not in found.settings


def test_keys_under_a_run_time_branch_give_one_launch_per_outcome() -> None:
    body = "def f(replay):\n    kw = {'model': 'm'}\n    if replay:\n        kw['return_sampling_mask'] = True\n    return LLM(**kw)\n"
    found = extract(SourceFile("t.py", HEAD + body), ExtractContext())
    by_condition = {item.condition: item for item in found}
    assert set(by_condition) == {"when `replay` is true", "when `replay` is false"}
    assert by_condition["when `replay` is true"].value("return_sampling_mask") is True
    # On the other path the key may still be there (nothing rests on its absence): unknown.
    assert by_condition["when `replay` is false"].value("return_sampling_mask") is UNKNOWN


def test_call_sites_bind_arguments_and_defaults() -> None:
    body = (
        "def make(model, mode='raw_logprobs', **extra):\n"
        "    return LLM(model, return_sampling_mask=True, logprobs_mode=mode, **extra)\n"
        "make('a')\n"
        "make('b', mode='processed_logprobs', seed=7)\n"
    )
    found = extract(SourceFile("t.py", HEAD + body), ExtractContext())
    values = sorted((item.value("model"), item.value("logprobs_mode"), item.value("seed")) for item in found)
    assert values == [("a", "raw_logprobs", None), ("b", "processed_logprobs", 7)]
    assert not any(item.open_ended for item in found)


_FORWARDS = "def make(**extra):\n    return LLM('m', return_sampling_mask=True, **extra)\n"


def test_forwarded_keywords_no_one_in_the_tree_passes_are_judged_as_written() -> None:
    # Python's "$@": the launch is complete as written, resting on what the caller leaves out.
    found = launch(_FORWARDS)
    assert not found.open_ended
    assert [assumption.condition for assumption in found.assumptions] == ["the caller's `**extra` does not set it"]


@pytest.mark.parametrize(
    ("body", "context"),
    [
        (_FORWARDS, ExtractContext(forwarded_arguments="open")),  # the configuration asks for it
        (_FORWARDS + "pool.submit(make, seed=1)\n", ExtractContext()),  # handed to a caller not in sight
        ("@app.command()\n" + _FORWARDS, ExtractContext()),  # a framework calls it
        ("class Worker:\n    " + _FORWARDS.replace("\n    ", "\n        ").replace("(**", "(self, **"), ExtractContext()),
    ],
)
def test_forwarded_keywords_a_caller_out_of_sight_may_pass_stay_open(body: str, context: ExtractContext) -> None:
    (found,) = extract(SourceFile("t.py", HEAD + body), context)
    assert found.open_ended and any("**extra" in reason for reason in found.open_reasons)


def test_values_from_elsewhere_carry_their_path() -> None:
    body = "def args():\n    return {'return_sampling_mask': True}\nllm = LLM('m', **args())\n"
    found = launch(body)
    mask = found.settings["return_sampling_mask"]
    assert mask.span.start_line == 3  # where it is written, in the helper
    assert [span.start_line for span in mask.via] == [4]  # the helper's call
    assert found.path_to((mask.span,)) == (*mask.via, found.span)


def test_an_import_outside_the_tree_is_unknown(tmp_path) -> None:
    path = tmp_path / "t.py"
    path.write_text(HEAD + "from somewhere_else import ARGS\nLLM('m', return_sampling_mask=True, **ARGS)\n")
    found = extract(SourceFile(str(path), path.read_text()), ExtractContext(read_text=lambda p: None))
    assert len(found) == 1 and found[0].open_ended


def test_a_self_attribute_written_in_a_third_method_is_open() -> None:
    body = (
        "class W:\n"
        "    def __init__(self):\n"
        "        self.kw = {'return_sampling_mask': True}\n"
        "    def tune(self):\n"
        "        self.kw['logprobs_mode'] = 'processed_logprobs'\n"
        "    def start(self):\n"
        "        return LLM('m', **self.kw)\n"
    )
    found = launch(body)
    assert found.value("return_sampling_mask") is True
    assert found.open_ended and any("written in `tune`" in reason for reason in found.open_reasons)


def test_a_module_dict_a_function_writes_into_is_open() -> None:
    body = (
        "ARGS = {'return_sampling_mask': True}\n"
        "def configure():\n"
        "    ARGS['logprobs_mode'] = 'processed_logprobs'\n"
        "def start():\n"
        "    return LLM('m', **ARGS)\n"
    )
    found = launch(body)
    assert found.open_ended and any("written in `configure`" in reason for reason in found.open_reasons)
    local = launch(
        "ARGS = {'return_sampling_mask': True}\ndef other():\n    ARGS = {}\n    ARGS['x'] = 1\ndef start():\n    return LLM('m', **ARGS)\n"
    )
    assert not local.open_ended  # `other` writes into its own ARGS


def test_a_parser_handed_to_another_call_gives_an_open_namespace() -> None:
    body = (
        "import argparse\n"
        "from vllm import EngineArgs\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--seed', default=0)\n"
        "EngineArgs.add_cli_args(parser)\n"
        "args = parser.parse_args()\n"
        "LLM(**vars(args), return_sampling_mask=True)\n"
    )
    found = launch(body)
    # vLLM's own options, and their defaults, came from add_cli_args
    assert found.open_ended and any("the parser handed to `EngineArgs.add_cli_args`" in reason for reason in found.open_reasons)


def test_set_defaults_replaces_an_option_default() -> None:
    body = (
        "import argparse\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--logprobs-mode', default='raw_logprobs')\n"
        "parser.set_defaults(logprobs_mode='processed_logprobs')\n"
        "args = parser.parse_args()\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n"
    )
    assert launch(body).value("logprobs_mode") == "processed_logprobs"


def test_each_return_of_a_helper_is_a_branch_with_its_condition() -> None:
    body = (
        "def args(replay):\n"
        "    if replay:\n"
        "        return {'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'}\n"
        "    return {'seed': 1}\n"
        "def build(replay):\n"
        "    return LLM('m', **args(replay))\n"
    )
    found = extract(SourceFile("t.py", HEAD + body), ExtractContext())
    by_condition = {item.condition: item for item in found}
    assert by_condition["when `replay` is true"].value("logprobs_mode") == "raw_logprobs"
    assert by_condition["when `replay` is true"].settings["logprobs_mode"].span.start_line == 4  # written in the helper
    assert by_condition["when `replay` is false"].value("seed") == 1
    assert by_condition["when `replay` is false"].value("return_sampling_mask") is UNKNOWN  # another path's key: not absent


@pytest.mark.parametrize(
    "helper",
    [
        "def args(x):\n    if x:\n        return {'seed': 1}\n",  # falls through to None
        "def args(x):\n    for item in x:\n        return {'seed': item}\n    return {'seed': 2}\n",  # a return in a loop
        "def args(x):\n    if x:\n        if x > 1:\n            return {'seed': 1}\n    return {'seed': 2}\n",  # nested
    ],
)
def test_returns_that_are_not_a_chain_of_branches_leave_the_launch_open(helper: str) -> None:
    found = launch(helper + "def build(x):\n    return LLM('m', return_sampling_mask=True, **args(x))\n")
    assert found.open_ended


def _hydra_launch(tmp_path, config: str, decorator: str = '@hydra.main(config_path="conf", config_name="config")'):
    from replaylint.frontends.python import extract as read

    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text(config)
    text = f"import hydra\nfrom vllm import LLM\n{decorator}\ndef main(cfg):\n    return LLM(**cfg.vllm)\nmain()\n"
    path = tmp_path / "train.py"
    context = ExtractContext(read_text=lambda name: open(name).read() if os.path.exists(name) else None, root=str(tmp_path))
    (found,) = read(SourceFile(str(path), text), context)
    return found


def test_a_hydra_config_gives_its_keys_where_the_yaml_writes_them(tmp_path) -> None:
    found = _hydra_launch(tmp_path, "vllm:\n  model: m\n  return_sampling_mask: true\n")
    mask = found.settings["return_sampling_mask"]
    assert mask.value is True and mask.span.path.endswith("config.yaml") and mask.span.start_line == 3
    assert not found.open_ended and [a.condition for a in found.assumptions] == ["Hydra's command line does not set it"]


@pytest.mark.parametrize(
    "config",
    [
        "defaults:\n  - engine: replay\nvllm:\n  return_sampling_mask: true\n",  # composed from other files
        "vllm:\n  return_sampling_mask: true\n  logprobs_mode: ???\n",  # given on the command line
        "vllm:\n  return_sampling_mask: true\n  logprobs_mode: ${oc.env:MODE}\n",  # resolved when it runs
    ],
)
def test_what_hydra_decides_when_it_runs_is_not_known(tmp_path, config: str) -> None:
    found = _hydra_launch(tmp_path, config)
    assert found.open_ended or found.value("logprobs_mode") is UNKNOWN


@pytest.mark.parametrize(
    "condition, expected",
    [
        ("if k in KEYS", {"return_sampling_mask": True, "seed": 1, "logits_processors": None}),
        ("if k not in ('pretrained', 'batch_size')", {"return_sampling_mask": True, "seed": 1, "logits_processors": None}),
        ("if k in KEYS and v is not None", {"return_sampling_mask": True, "seed": 1}),
        ("if v is not None", {"pretrained": "m", "return_sampling_mask": True, "seed": 1}),
    ],
)
def test_keys_filtered_by_a_comprehension_reach_the_engine_filtered(condition: str, expected: dict) -> None:
    # lm-evaluation-harness drops its own keys (`pretrained`, a processor of its wrapper) before the engine
    body = (
        "KEYS = {'return_sampling_mask', 'seed', 'logits_processors'}\n"
        "ARGS = {'pretrained': 'm', 'return_sampling_mask': True, 'seed': 1, 'logits_processors': None}\n"
        f"LLM('m', **{{k: v for k, v in ARGS.items() {condition}}})\n"
    )
    found = launch(body)
    assert not found.open_ended
    assert {name: setting.value for name, setting in found.settings.items() if name != "model"} == expected


def test_a_filter_replaylint_cannot_decide_leaves_the_keys_it_may_drop_open() -> None:
    body = (
        "import inspect\nARGS = {'pretrained': 'm', 'return_sampling_mask': True, 'logits_processors': ['p.C']}\n"
        "LLM('m', **{k: v for k, v in ARGS.items() if k in inspect.signature(LLM.__init__).parameters})\n"
    )
    found = launch(body)
    assert found.open_ended and any("may pass the filter" in reason for reason in found.open_reasons)
    assert "logits_processors" not in found.settings  # not a presence any rule may report on


def test_engine_args_signature_keeps_the_engine_fields() -> None:
    body = (
        "import inspect\nfrom vllm import EngineArgs\nARGS = {'logprobs_mode': 'raw_logprobs', 'return_sampling_mask': True}\n"
        "ok = inspect.signature(EngineArgs).parameters\nLLM('m', **{k: v for k, v in ARGS.items() if k in ok})\n"
    )
    found = launch(body)
    assert found.value("logprobs_mode") == "raw_logprobs" and not found.open_ended


@pytest.mark.parametrize(
    "writes, expected",
    [
        ("os.environ.update({'VLLM_USE_V2_MODEL_RUNNER': '0', 'A': '1'})\n", "0"),
        ("ENV = {'VLLM_USE_V2_MODEL_RUNNER': 'false'}\nos.environ.update(ENV)\n", "false"),
        ("def setup():\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n\n\nsetup()\n", "0"),
        ("if flag:\n    os.environ.update({'VLLM_USE_V2_MODEL_RUNNER': '0'})\n", UNKNOWN),
    ],
)
def test_environment_writes_before_the_engine(writes: str, expected) -> None:
    found = launch(f"import os\n{writes}LLM('m', return_sampling_mask=True)\n")
    assert found.env["VLLM_USE_V2_MODEL_RUNNER"].value == expected


def test_a_ray_actors_runtime_env_is_the_engines_environment() -> None:
    body = (
        "import ray\n@ray.remote\nclass Actor:\n    def __init__(self, **kwargs):\n        self.llm = LLM(**kwargs)\n\n\n"
        "Actor.options(num_gpus=1, runtime_env={'env_vars': {'VLLM_USE_V2_MODEL_RUNNER': '0'}}).remote(model='m', return_sampling_mask=True)\n"
    )
    found = [item for item in extract(SourceFile("t.py", HEAD + body), ExtractContext()) if item.env]
    assert [item.env["VLLM_USE_V2_MODEL_RUNNER"].value for item in found] == ["0"]


def test_a_subclass_super_init_and_a_method_init_calls_reach_the_engine() -> None:
    body = (
        "class Base:\n    def __init__(self, model, **kw):\n        self._start(model, kw)\n\n"
        "    def _start(self, model, kw):\n        kw.pop('n')\n        self.llm = LLM(model, **kw)\n\n\n"
        "class Replay(Base):\n    def __init__(self, model, **kw):\n        super().__init__(model, return_sampling_mask=True, **kw)\n\n\n"
        "Replay('m', n=2, seed=3)\n"
    )
    found = launch(body)
    assert {name: setting.value for name, setting in found.settings.items()} == {"model": "m", "return_sampling_mask": True, "seed": 3}
    assert not found.open_ended


def _loaded(tmp_path, path_expression: str, script: str = "run.py"):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "engine.json").write_text('{"return_sampling_mask": true, "logprobs_mode": "raw_logprobs"}')
    text = f"import json, os\nfrom pathlib import Path\nfrom vllm import LLM\nwith open({path_expression}) as f:\n    kw = json.load(f)\nLLM('m', **kw)\n"
    context = ExtractContext(read_text=lambda name: open(name).read() if os.path.exists(name) else None, root=str(tmp_path))
    return extract(SourceFile(str(tmp_path / script), text), context)


@pytest.mark.parametrize(
    "expression",
    [
        'Path(__file__).parent / "configs" / "engine.json"',
        'os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs", "engine.json")',
    ],
)
def test_a_config_file_named_from_the_module_is_read(tmp_path, expression: str) -> None:
    (found,) = _loaded(tmp_path, expression)
    assert found.value("logprobs_mode") == "raw_logprobs" and found.settings["logprobs_mode"].span.path.endswith("engine.json")


def test_a_config_file_named_from_the_working_directory_is_read_beside_the_script(tmp_path) -> None:
    (found,) = _loaded(tmp_path, '"configs/engine.json"')  # `python run.py` beside configs/
    assert found.value("logprobs_mode") == "raw_logprobs" and found.settings["logprobs_mode"].span.path.endswith("engine.json")


def test_a_config_file_named_from_the_working_directory_is_not_known_away_from_the_script(tmp_path) -> None:
    found = _loaded(tmp_path, '"configs/engine.json"', "scripts/run.py")  # run from the top or from scripts/: not told
    assert not [item for item in found if not item.open_ended]  # no launch whose mask is known


def test_a_request_of_a_method_is_read_with_what_its_callers_pass() -> None:
    body = (
        "from vllm import SamplingParams\n\n\nclass Gen:\n    def __init__(self):\n"
        "        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n\n"
        "    def sample(self, prompts, **kw):\n        return self.llm.generate(prompts, SamplingParams(top_k=kw.get('top_k', -1)))\n\n\n"
        "Gen().sample(['x'], top_k=40)\n"
    )
    (request,) = launch(body).requests
    assert request.settings["top_k"].value == 40


@pytest.mark.parametrize(
    "text, checked",
    [
        (b"class Cfg(BaseModel):\n    return_sampling_mask: bool = Field(default=True)\n", True),
        (b"@dataclass\nclass Cfg:\n    return_sampling_mask: bool = True\n", True),
        (
            b"from vllm.config.utils import config\n\n\n@config\nclass ModelConfig:\n    return_sampling_mask: bool = False\n",
            False,
        ),  # vLLM's own
        # a user's config class (no vLLM import): a launcher may turn each bool field into its bare flag, True or
        # False (verl-tool's `ModelService.load_model`; round 27's h27_verltool_bool_false_field_still_flag)
        (b"@dataclass\nclass ModelConfig:\n    return_sampling_mask: bool = False\n", True),
        (b"def run(return_sampling_mask: bool = False):\n    return return_sampling_mask\n", False),
    ],
)
def test_a_config_class_that_turns_the_mask_on_is_checked_for_its_users(text: bytes, checked: bool) -> None:
    from replaylint.frontends import relevant

    assert relevant("python", text) is checked


def test_a_write_in_the_caller_after_the_engine_is_built_does_not_count() -> None:
    body = (
        "import os\n\n\ndef build():\n    return LLM('m', return_sampling_mask=True)\n\n\n"
        "def main():\n    llm = build()\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n    return llm\n\n\nmain()\n"
    )
    assert "VLLM_USE_V2_MODEL_RUNNER" not in launch(body).env


def test_a_dict_field_made_by_a_lambda_factory_is_spread_into_the_engine() -> None:
    body = (
        "from dataclasses import dataclass, field\n\n\n@dataclass\nclass Cfg:\n"
        "    engine_kwargs: dict = field(default_factory=lambda: {'return_sampling_mask': True, 'seed': 2})\n\n\n"
        "LLM('m', **Cfg().engine_kwargs)\n"
    )
    found = launch(body)
    assert found.value("seed") == 2 and found.value("return_sampling_mask") is True and not found.open_ended


@pytest.mark.parametrize(
    "parser, expected",
    [
        ("p.add_argument('--mode', default='processed_logprobs')\n", "raw_logprobs"),  # no such option: the default
        ("p.add_argument('--logprobs-mode', default='processed_logprobs')\n", "processed_logprobs"),
        ("add_more(p)\n", UNKNOWN),  # options added out of sight
    ],
)
def test_getattr_of_parsed_arguments_with_a_default(parser: str, expected) -> None:
    body = (
        "import argparse\np = argparse.ArgumentParser()\n"
        f"{parser}args = p.parse_args()\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=getattr(args, 'logprobs_mode', 'raw_logprobs'))\n"
    )
    assert launch(body).value("logprobs_mode") == expected


@pytest.mark.parametrize(
    "rebinding",
    [
        "    engine_kwargs = engine_kwargs or {}\n",
        "    if engine_kwargs is None:\n        engine_kwargs = {}\n",
        "    engine_kwargs = {} if engine_kwargs is None else engine_kwargs\n",
    ],
)
def test_a_parameter_defaulted_in_the_body_is_read_with_the_callers_value(rebinding: str) -> None:
    # verl's and OpenRLHF's `engine_kwargs = engine_kwargs or {}`: the call passes none, so nothing more reaches the engine
    body = f"def make(model, engine_kwargs=None):\n{rebinding}    return LLM(model, return_sampling_mask=True, **engine_kwargs)\n\n\nmake('m')\n"
    found = launch(body)
    assert not found.open_ended and set(found.settings) == {"model", "return_sampling_mask"}


def test_a_parameter_defaulted_in_the_body_with_no_caller_stays_open() -> None:
    body = "def make(model, engine_kwargs=None):\n    engine_kwargs = engine_kwargs or {}\n    return LLM(model, return_sampling_mask=True, **engine_kwargs)\n"
    assert launch(body).open_ended


def test_a_filter_on_one_key_and_an_element_of_the_parsed_dataclasses() -> None:
    found = launch(
        "CFG = {'model': 'm', 'return_sampling_mask': True}\nLLM(model=CFG['model'], **{k: v for k, v in CFG.items() if k != 'model'})\n"
    )
    assert set(found.settings) == {"model", "return_sampling_mask"} and not found.open_ended
    body = (
        "from dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n\n@dataclass\nclass Args:\n"
        "    logprobs_mode: str = 'raw_logprobs'\n\n\nargs = HfArgumentParser(Args).parse_args_into_dataclasses()[0]\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n"
    )
    assert launch(body).value("logprobs_mode") == "raw_logprobs"


def _values(found) -> dict:
    return {name: setting.value for name, setting in found.settings.items()}


@pytest.mark.parametrize(
    "body, expected",
    [
        (  # class attributes, read through `self` and through the class
            "class E:\n    MODE = 'raw_logprobs'\n    def __init__(self):\n"
            "        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode=self.MODE, seed=E.SEED)\n    SEED = 3\n\n\nE()\n",
            {"model": "m", "return_sampling_mask": True, "logprobs_mode": "raw_logprobs", "seed": 3},
        ),
        (  # a @property that returns the engine's keywords
            "class E:\n    def __init__(self, name):\n        self.name = name\n        self.llm = LLM(**self.args)\n\n"
            "    @property\n    def args(self):\n        return {'model': self.name, 'return_sampling_mask': True}\n\n\nE('m')\n",
            {"model": "m", "return_sampling_mask": True},
        ),
        (  # ChainMap: the first mapping wins
            "from collections import ChainMap\nA = {'return_sampling_mask': True, 'seed': 1}\nB = {'seed': 2, 'logprobs_mode': 'raw_logprobs'}\n"
            "LLM('m', **ChainMap(A, B))\n",
            {"model": "m", "return_sampling_mask": True, "seed": 1, "logprobs_mode": "raw_logprobs"},
        ),
        (  # dataclasses.replace writes fields of a copy
            "from dataclasses import dataclass, asdict, replace\n@dataclass\nclass C:\n    model: str = 'm'\n"
            "    return_sampling_mask: bool = True\n    logprobs_mode: str = 'processed_logprobs'\n\n"
            "LLM(**asdict(replace(C(), logprobs_mode='raw_logits')))\n",
            {"model": "m", "return_sampling_mask": True, "logprobs_mode": "raw_logits"},
        ),
        (  # a namespace's attributes, written after it is made too
            "from types import SimpleNamespace\nns = SimpleNamespace(model='m', return_sampling_mask=True)\n"
            "ns.logprobs_mode = 'processed_logprobs'\nLLM(**vars(ns))\n",
            {"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
        ),
        (  # keys spelt by constants
            "KEY = 'logprobs_mode'\nkw = {'return_sampling_mask': True, KEY: 'raw_logits'}\nkw[KEY] = 'processed_logprobs'\nLLM('m', **kw)\n",
            {"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
        ),
        (  # attributes written on the engine's arguments before the engine is made from them
            "from vllm import AsyncEngineArgs, AsyncLLMEngine\nargs = AsyncEngineArgs(model='m')\nargs.return_sampling_mask = True\n"
            "setattr(args, 'seed', 5)\nengine = AsyncLLMEngine.from_engine_args(args)\nargs.logprobs_mode = 'processed_logprobs'\n",
            {"model": "m", "return_sampling_mask": True, "seed": 5},
        ),
        (  # a subclass of the engine, made with a known tuple spread
            "class My(LLM):\n    def __init__(self, *args, **kwargs):\n        kwargs['seed'] = 1\n        super().__init__(*args, **kwargs)\n\n\n"
            "ARGS = ('m',)\nMy(*ARGS, return_sampling_mask=True)\n",
            {"model": "m", "return_sampling_mask": True, "seed": 1},
        ),
        (  # a closure reads the arguments of the call that made it
            "def factory(mode):\n    def build(name):\n        return LLM(name, return_sampling_mask=True, logprobs_mode=mode)\n    return build\n\n\n"
            "make = factory('raw_logits')\nmake('m')\n",
            {"model": "m", "return_sampling_mask": True, "logprobs_mode": "raw_logits"},
        ),
    ],
)
def test_objects_and_closures_reach_the_engine(body: str, expected: dict) -> None:
    found = [f for f in extract(SourceFile("t.py", HEAD + body), ExtractContext()) if f.get("return_sampling_mask") is not None]
    assert [_values(f) for f in found if not f.open_ended][:1] == [expected]


@pytest.mark.parametrize(
    "body",
    [
        # a class attribute the module writes elsewhere
        "class E:\n    MODE = 'raw_logprobs'\n\n\nE.MODE = 'processed_logprobs'\nLLM('m', return_sampling_mask=True, logprobs_mode=E.MODE)\n",
        # a record's field written after it is made
        "from dataclasses import dataclass, asdict\n@dataclass\nclass C:\n    model: str = 'm'\n    return_sampling_mask: bool = True\n"
        "    logprobs_mode: str = 'raw_logprobs'\n\ncfg = C()\ncfg.logprobs_mode = 'processed_logprobs'\nLLM(**asdict(cfg))\n",
    ],
)
def test_values_written_elsewhere_are_not_taken_for_the_default(body: str) -> None:
    found = [f for f in extract(SourceFile("t.py", HEAD + body), ExtractContext()) if f.get("return_sampling_mask") is not None]
    assert all(f.get("logprobs_mode") is None or f.get("logprobs_mode").value != "raw_logprobs" for f in found)


def test_requests_follow_the_engine_into_functions_and_ray_actors() -> None:
    from replaylint.frontends.python import extract as read

    body = (
        "import ray\nfrom vllm import SamplingParams\n\n\n"
        "def validate(llm, prompts):\n    params = SamplingParams.from_optional(temperature=0.0, top_k=1)\n    return llm.generate(prompts, params)\n\n\n"
        "@ray.remote\nclass Gen:\n    def __init__(self):\n        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n\n"
        "    def generate(self, prompts, sp):\n        return self.llm.generate(prompts, sp)\n\n\n"
        "base = SamplingParams(temperature=1.0, top_k=50)\nsp = base.clone()\nsp.top_k = 0\n"
        "actors = [Gen.remote() for _ in range(2)]\nray.get([a.generate.remote(['hi'], sp) for a in actors])\n"
        "validate(LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs'), ['hi'])\n"
    )
    found = read(SourceFile("t.py", HEAD + body), ExtractContext())
    sent = sorted((name, s.value) for f in found for r in f.requests for name, s in r.settings.items())
    assert ("temperature", 0.0) in sent and ("top_k", 0) in sent


def test_an_enum_members_value_reaches_the_engine_and_a_str_enums_member_is_its_value() -> None:
    # A `str` Enum's member is a str equal to its value (vLLM compares it with the text); the
    # member of an Enum that is not a str subclass is not its value.
    enum = "import enum\nclass Mode(str, enum.Enum):\n    RAW = 'raw_logprobs'\n\n\n"
    found = launch(enum + "LLM('m', return_sampling_mask=True, logprobs_mode=Mode.RAW.value)\n")
    assert found.value("logprobs_mode") == "raw_logprobs"
    assert launch(enum + "LLM('m', return_sampling_mask=True, logprobs_mode=Mode.RAW)\n").value("logprobs_mode") == "raw_logprobs"
    plain = enum.replace("(str, enum.Enum)", "(enum.Enum)")
    assert launch(plain + "LLM('m', return_sampling_mask=True, logprobs_mode=Mode.RAW)\n").value("logprobs_mode") is UNKNOWN


@pytest.mark.parametrize("merge", ["operator.or_", "lambda a, b: {**a, **b}", "lambda a, b: a | b"])
def test_mappings_merged_with_reduce_reach_the_engine_in_order(merge: str) -> None:
    found = launch(
        "import functools, operator\nA = {'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'}\n"
        f"B = {{'logprobs_mode': 'processed_logprobs'}}\nLLM('m', **functools.reduce({merge}, [A, B]))\n"
    )
    assert found.value("logprobs_mode") == "processed_logprobs" and not found.open_ended


@pytest.mark.parametrize(
    "tail",
    [
        "class Sub(E):\n    MODE = 'processed_logprobs'\n\n\nSub()\n",  # a subclass overrides it
        "E.KW['logprobs_mode'] = 'processed_logprobs'\nE()\n",  # written into from outside
    ],
)
def test_a_class_attribute_another_class_or_statement_changes_is_not_the_bodys(tail: str) -> None:
    body = (
        "class E:\n    MODE = 'raw_logprobs'\n    KW = {'return_sampling_mask': True}\n"
        "    def __init__(self):\n        self.llm = LLM('m', **self.KW, logprobs_mode=self.MODE)\n\n\n" + tail
    )
    found = [f for f in extract(SourceFile("t.py", HEAD + body), ExtractContext()) if f.get("return_sampling_mask") is not None]
    assert all(f.get("logprobs_mode") is None or f.value("logprobs_mode") != "raw_logprobs" or f.open_ended for f in found)


def test_a_class_attribute_dict_written_in_init_before_the_engine_counts() -> None:
    found = launch(
        "class E:\n    KW = {'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'}\n"
        "    def __init__(self):\n        self.KW['logprobs_mode'] = 'processed_logprobs'\n        self.llm = LLM('m', **self.KW)\n\n\nE()\n"
    )
    assert found.value("logprobs_mode") == "processed_logprobs"


@pytest.mark.parametrize(
    "body",
    [
        (  # a case with a guard: which case is taken is not known
            "FAST = bool(os.environ.get('FAST'))\n\n\ndef kw(mode):\n    match mode:\n"
            "        case 'replay' if FAST:\n            return {'return_sampling_mask': True}\n"
            "        case _:\n            return {'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n\n\n"
            "LLM('m', **kw('replay'))\n"
        ),
        (  # an elif chain that falls through (returns None) on the other paths
            "def kw(mode):\n    if mode == 'a':\n        return {'return_sampling_mask': True}\n"
            "    elif mode == 'b':\n        return {'seed': 1}\n\n\nLLM('m', **kw(input()))\n"
        ),
        (  # a field its __post_init__ sets again
            "from dataclasses import asdict, dataclass\n\n\n@dataclass\nclass C:\n    return_sampling_mask: bool = True\n"
            "    logprobs_mode: str = 'raw_logprobs'\n\n    def __post_init__(self):\n        self.logprobs_mode = pick()\n\n\n"
            "LLM('m', **asdict(C()))\n"
        ),
        (  # a method a base from another package may define: the MRO is not known
            "import torch\n\n\nclass Mixin:\n    def kw(self):\n        return {'return_sampling_mask': True}\n\n\n"
            "class E(torch.nn.Module, Mixin):\n    def start(self):\n        return LLM('m', **self.kw())\n\n\nE().start()\n"
        ),
    ],
)
def test_what_round_5_follows_stays_open_where_it_cannot_decide(body: str) -> None:
    # no launch asks for the mask without saying its logprobs_mode is unknown or open (RPL003 stays silent)
    for found in extract(SourceFile("t.py", HEAD + "import os\n" + body), ExtractContext()):
        assert found.open_ended or found.value("return_sampling_mask") is not True or found.value("logprobs_mode") is UNKNOWN


def test_a_records_construction_beats_its_class_default_in_a_methods_request() -> None:
    body = (
        "from pydantic import BaseModel\nfrom vllm import SamplingParams\n\n\nclass Gen(BaseModel):\n    top_k: int = -1\n\n"
        "    def run(self, prompts):\n        params = SamplingParams(temperature=1.0, top_k=self.top_k)\n"
        "        llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "        return llm.generate(prompts, params)\n\n\nGen(top_k=40).run(['x'])\n"
    )
    (request,) = launch(body).requests
    assert request.settings["top_k"].value == 40


@pytest.mark.parametrize(
    "files",
    [
        {"pkg/engine.py": "from pkg.engine import ARGS\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True, **ARGS)\n"},
        {
            "pkg/a.py": "from pkg.b import ARGS\n",
            "pkg/engine.py": "from pkg.a import ARGS\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True, **ARGS)\n",
            "pkg/b.py": "from pkg.a import ARGS\n",
        },
    ],
    ids=["a module importing a name from itself", "a circle of imports"],
)
def test_an_import_that_leads_back_to_itself_leaves_the_value_unknown(tmp_path, files: dict) -> None:
    """open-instruct's `vllm_utils.py` imports `LLMRayActor` from itself: the flow must not
    follow such an import for ever (RPL902 "nested deeper than replaylint's stack") but read the
    name as unknown, the launch open-ended and silent."""
    import contextlib
    import io

    from replaylint.cli.main import main

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "concise", "."])
    finally:
        os.chdir(cwd)
    assert status == 0, out.getvalue()
    assert "RPL902" not in out.getvalue()


def test_a_package_read_as_text_decides_whether_a_name_is_its_submodule(tmp_path: Path) -> None:
    # `Tree.text_of` looks at a package through its path and text, without parsing it: the four
    # internal errors of the 13-package corpus's every-file pass came from a name looked up there.
    from replaylint.frontends.python.flow.tree import _submodule_instead

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "settings.py").write_text("ARGS = {}\n")
    init = str(tmp_path / "pkg" / "__init__.py")
    assert _submodule_instead((init, ""), "settings", str(tmp_path), ["pkg"])
    assert not _submodule_instead((init, "from .defaults import settings\n"), "settings", str(tmp_path), ["pkg"])
    assert not _submodule_instead((init, ""), "absent", str(tmp_path), ["pkg"])


@pytest.mark.parametrize(
    ("argv", "read"),
    [
        ('["--logprobs-mode", "raw_logprobs"]', True),
        ('["--top-k", "-1", "--logprobs-mode=raw_logprobs"]', True),
        ('["--logprobs-mode", "--top-k", "5"]', False),  # argparse: "expected one argument"
        ('["--logprobs-mode"]', False),
    ],
)
def test_a_command_line_written_for_the_parser_is_read_as_argparse_reads_it(tmp_path: Path, argv: str, read: bool) -> None:
    from replaylint.cli.main import main

    (tmp_path / "run.py").write_text(
        "import argparse\nfrom vllm import LLM\n"
        "parser = argparse.ArgumentParser()\n"
        'parser.add_argument("--logprobs-mode", default="processed_logprobs")\n'
        'parser.add_argument("--top-k", type=int, default=20)\n'
        f"args = parser.parse_args({argv})\n"
        'LLM("m", return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n'
    )
    status = main(["check", "--isolated", "--no-cache", "--quiet", "--target-vllm", "0.34.0", str(tmp_path)])
    assert status == (1 if read else 0)


def test_the_files_near_each_path_are_the_files_near_that_path(tmp_path) -> None:
    from replaylint.frontends.python.flow.module import parse
    from replaylint.frontends.python.flow.tree import Tree

    for name in ("a/one.py", "a/two.py", "b/three.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    context = ExtractContext(read_text=lambda path: Path(path).read_text())
    first, second = str(tmp_path / "a/one.py"), str(tmp_path / "a/two.py")
    tree = Tree(parse(SourceFile(first, "x = 1\n"), ""), context)
    near_first = {os.path.basename(path) for path, _ in tree.nearby_texts(first)}
    near_second = {os.path.basename(path) for path, _ in tree.nearby_texts(second)}
    assert "one.py" not in near_first and "two.py" in near_first
    assert "one.py" in near_second and "two.py" not in near_second  # not the first path's list again


@pytest.mark.parametrize(
    "init, calls",
    [
        ("def __init__(self):\n    super().__init__(1)\n", True),
        ("def __init__(self):\n    super( ).__init__ (\n        1)\n", True),  # spaced: unparse writes it plainly
        ("def __init__(self):\n    self.x = mysuper().__init__()\n", True),  # unparse's text holds it too
        ("def __init__(self):\n    self.base.super().__init__()\n", True),
        ("def __init__(self):\n    '''Calls super().__init__(...) later.'''\n", True),  # a string holding it
        ("def __init__(self):\n    super(Engine, self).__init__()\n", False),
        ("def __init__(self):\n    super().__init__\n", False),  # not called
        ("def __init__(self):\n    Base.__init__(self)\n", False),
        ("def __init__(self):\n    super().setup()  # super().__init__( in a comment\n", False),
    ],
)
def test_an_init_calls_super_init_as_its_unparsed_text_says(init: str, calls: bool) -> None:
    node = ast.parse(init).body[0]
    assert _writes_super_init(node) is calls
    assert ("super().__init__(" in ast.unparse(node)) is calls  # the test it stands for


@pytest.mark.parametrize(
    "body, calls",
    [
        ("def get(model_key):\n    return model_key()\n", True),
        ("def get(model_key):\n    return model_key ()\n", True),
        ("def get(model_key):\n    return (model_key)(1)\n", True),
        ("def get(model_key):\n    return [model_key\n        (1)]\n", True),
        ("def get(model_key):\n    return model_key.load()\n", False),  # a method of it, not it
        ("def get(model_key):\n    return other_model_key()\n", False),
    ],
)
def test_a_function_calling_its_parameter_is_told_by_its_text(body: str, calls: bool) -> None:
    from replaylint.frontends.python.flow.held_partials import _may_call

    function = ast.parse(body).body[0]
    assert _may_call(body, {"model_key"}) is calls
    assert any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "model_key" for n in ast.walk(function)) is calls
