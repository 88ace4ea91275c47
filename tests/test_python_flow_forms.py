"""Forms the value flow was known to miss (issue 27): vLLM's server parser given a word list,
lambdas and comprehensions, requests through the inner engine, arithmetic of known values, and
a method called from another module. Each with what must stay unknown: a value from run time, a
lambda's own parameter, a word list changed in place, a text a hostile tree would make huge."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.frontends import ExtractContext, SourceFile
from replaylint.frontends.python import extract
from replaylint.model import UNKNOWN
from tests.test_python_flow_spellings import codes, write

HEAD = "from vllm import LLM, SamplingParams\n"


def launches(body: str):
    return extract(SourceFile("t.py", HEAD + body), ExtractContext())


def value(body: str, name: str):
    (found,) = launches(body)
    return found.value(name)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("BASE + 2", 12),
        ("BASE * 2 - 1", 19),
        ("BASE // 3", 3),
        ("int('4') * 2", 8),
        ("f'{KIND}_logprobs'", "raw_logprobs"),
        ("'%s_logprobs' % KIND", "raw_logprobs"),
        ("'%s_%s' % (KIND, 'logprobs')", "raw_logprobs"),
        ("'{}_logprobs'.format(KIND)", "raw_logprobs"),
        ("'{kind}_logprobs'.format(kind=KIND)", "raw_logprobs"),
        ("f'{BASE:03d}'", "010"),
        ("NONE or BASE", 10),
    ],
)
def test_arithmetic_and_text_of_known_values(expression: str, expected: object) -> None:
    body = f"BASE = 10\nKIND = 'raw'\nNONE = None\nLLM('m', return_sampling_mask=True, seed={expression})\n"
    assert value(body, "seed") == expected


@pytest.mark.parametrize(
    "expression",
    [
        "BASE + rank",  # a parameter no caller fills
        "f'{KIND}_{rank}'",
        "'%s' % rank",
        "'{}'.format(rank)",
        "BASE / 0",
        "'x' * 10**9",  # a text a hostile tree would make huge: not built
        "'x' * 100000",
        "'%999999999d' % 1",
        "f'{BASE:>999999999}'",
        "'{:{}}'.format(1, 999999999)",
        "BASE + 'a'",
    ],
)
def test_an_operand_not_known_or_a_result_too_large_is_unknown(expression: str) -> None:
    body = f"BASE = 10\nKIND = 'raw'\ndef make(rank):\n    return LLM('m', return_sampling_mask=True, seed={expression})\n"
    assert value(body, "seed") is UNKNOWN


def test_a_lambdas_parameter_is_its_own_not_the_enclosing_name() -> None:
    # `args` inside the lambda is its parameter: the module's `args` (raw logprobs) does not reach it.
    body = "args = {'logprobs_mode': 'raw_logprobs'}\nmake = lambda args: LLM('m', return_sampling_mask=True, **args)\n"
    (found,) = launches(body)
    assert found.open_ended and found.get("logprobs_mode") is None


@pytest.mark.parametrize(
    "made",
    [
        "[lambda: LLM('m', return_sampling_mask=True, **kw) for kw in ITEMS]",
        "lambda kw: (lambda: LLM('m', return_sampling_mask=True, **kw))",
    ],
)
def test_a_lambda_inside_a_comprehension_or_lambda_does_not_read_the_modules_names(made: str) -> None:
    body = f"kw = {{'logprobs_mode': 'raw_logprobs'}}\nmakers = {made}\n"
    assert all(found.get("logprobs_mode") is None for found in launches(body))


def test_a_lambda_is_read_with_each_call_of_it() -> None:
    body = "make = lambda mode: LLM('m', return_sampling_mask=True, logprobs_mode=mode)\nmake('raw_logprobs')\nmake('processed_logprobs')\n"
    assert sorted(found.value("logprobs_mode") for found in launches(body)) == ["processed_logprobs", "raw_logprobs"]


def test_a_comprehension_builds_one_engine_per_known_item() -> None:
    body = "CONFIGS = [{'seed': 1}, {'seed': 2}]\nengines = [LLM('m', return_sampling_mask=True, **c) for c in CONFIGS if c]\n"
    assert sorted(found.value("seed") for found in launches(body)) == [1, 2]


@pytest.mark.parametrize(
    "made",
    [
        "{k: D[k] for k in D}",
        "{k: D.get(k) for k in D.keys() if k in ('logprobs_mode', 'seed')}",
        "{name: D[key] for key, name in NAMES.items()}",
        "{name: 'raw_logprobs' for name in MODES.values()}",
    ],
)
def test_a_dict_comprehension_over_a_dict_known_whole_reads_each_item(made: str) -> None:
    body = (
        "D = {'logprobs_mode': 'raw_logprobs', 'seed': 1}\n"
        "NAMES = {'logprobs_mode': 'logprobs_mode'}\nMODES = {'mode': 'logprobs_mode'}\n"
        f"LLM('m', return_sampling_mask=True, **{made})\n"
    )
    assert value(body, "logprobs_mode") == "raw_logprobs"


def test_a_dict_comprehension_over_a_dict_the_run_adds_to_is_open() -> None:
    body = "import json\nD = {'seed': 1}\nD.update(json.load(open('extra.json')))\nLLM('m', return_sampling_mask=True, **{k: D[k] for k in D})\n"
    (found,) = launches(body)
    assert found.open_ended and found.get("logprobs_mode") is None


def test_a_nested_comprehensions_names_are_its_own() -> None:
    # `extra` belongs to the outer comprehension: the module's `extra` (raw logprobs) never reaches the engines.
    body = (
        "extra = {'logprobs_mode': 'raw_logprobs'}\nCONFIGS = [{'seed': 1}]\n"
        "E = [[LLM('m', return_sampling_mask=True, **c, **extra) for c in CONFIGS] for extra in EXTRAS]\n"
    )
    found = launches(body)
    assert found and all(item.open_ended and item.get("logprobs_mode") is None for item in found)


def test_a_request_through_the_inner_engine(tmp_path: Path) -> None:
    engine = 'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    request = 'llm.llm_engine.add_request("r", "p", SamplingParams(temperature=1.0, top_k={}))\n'
    assert codes(write(tmp_path, {"a.py": HEAD + engine + request.format(0)})) == [("a.py", 3, "RPL102")]
    assert codes(write(tmp_path, {"a.py": HEAD + engine + request.format(20)})) == []


SERVER = (
    "from vllm.entrypoints.openai.api_server import run_server\n"
    "from vllm.entrypoints.openai.cli_args import make_arg_parser\n"
    "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "argv = ['--model', 'm', '--return-sampling-mask', '--enable-scale-out']\n"
    "{change}"
    "args = make_arg_parser(FlexibleArgumentParser()).parse_args(argv)\n"
    "run_server(args)\n"
)


def test_a_server_parsers_word_list_is_a_vllm_command_line(tmp_path: Path) -> None:
    found = codes(write(tmp_path, {"serve.py": SERVER.format(change="")}))
    assert found == [("serve.py", 4, "RPL003")]  # the default logprobs mode, where the words are


def test_a_word_list_changed_in_place_is_not_read_as_its_literal(tmp_path: Path) -> None:
    change = "argv.extend(['--logprobs-mode', 'processed_logprobs'])\n"
    assert codes(write(tmp_path, {"serve.py": SERVER.format(change=change)})) == []


def test_a_word_list_parsed_by_another_parser_is_not_vllms(tmp_path: Path) -> None:
    text = SERVER.format(change="").replace("make_arg_parser(FlexibleArgumentParser())", "FlexibleArgumentParser()")
    assert codes(write(tmp_path, {"serve.py": text})) == []


def test_a_method_of_a_class_made_nowhere_in_the_tree_keeps_its_keywords_open(tmp_path: Path) -> None:
    engine = "from vllm import LLM\nclass Engine:\n    def start(self, **kw):\n        return LLM('m', return_sampling_mask=True, **kw)\n"
    assert codes(write(tmp_path, {"engine.py": engine})) == []
    made = engine + "E = Engine()\n"
    assert codes(write(tmp_path, {"engine.py": made})) == [("engine.py", 4, "RPL003")]
    handed = made + "callbacks = [E.start]\n"  # whoever it is handed to may pass anything
    assert codes(write(tmp_path, {"engine.py": handed})) == []
    elsewhere = {"engine.py": engine, "main.py": "from engine import Engine\nE = Engine()\n"}  # made in another module
    assert codes(write(tmp_path, elsewhere)) == [("engine.py", 4, "RPL003")]
    passed = {"main.py": "from engine import Engine\nE = Engine()\nE.start(logprobs_mode='processed_logprobs')\n"}
    assert codes(write(tmp_path, passed)) == []
