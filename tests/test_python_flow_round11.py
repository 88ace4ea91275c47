"""What held-out round 11 (tests/data/python_flow/h11_*) made the value flow follow, and where
each construct stops: `ast.literal_eval` of a text the flow knows (LLaMA-Factory's `vllm_config`
string) and a `types.MappingProxyType` of a dict (read as the dict). Each stop keeps the launch
open (no finding rests on an absent or unknown setting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# `ast.literal_eval(TEXT)`: the mapping the text spells, each key decided in the text

LITERAL = (
    "import ast\n"
    "from ast import literal_eval\n"
    "from vllm import LLM\n"
    "TEXT = \"{'return_sampling_mask': True, 'logprobs_mode': MODE}\"\n"
    "LLM('m', **PARSE(TEXT))\n"
)


@pytest.mark.parametrize("parse", ["ast.literal_eval", "literal_eval"])
def test_a_literal_text_parsed_by_literal_eval_is_read_at_the_text(tmp_path: Path, parse: str) -> None:
    source = LITERAL.replace("MODE", "'raw_logprobs'").replace("PARSE", parse)
    assert check(tmp_path, {"run.py": source}) == [("run.py", 4, "RPL003")]


def test_a_literal_text_with_processed_logprobs_is_clean(tmp_path: Path) -> None:
    source = LITERAL.replace("MODE", "'processed_logprobs'").replace("PARSE", "ast.literal_eval")
    assert check(tmp_path, {"run.py": source}) == []


@pytest.mark.parametrize(
    "text",
    [
        "{'return_sampling_mask': True, 'logprobs_mode': __import__('os').getenv('M')}",  # a call: refused, not run
        "{'return_sampling_mask': True, 'logprobs_mode': MODE}",  # a name: refused
        "{'return_sampling_mask': True,",  # not Python
    ],
)
def test_a_text_literal_eval_refuses_leaves_the_engine_open(tmp_path: Path, text: str) -> None:
    source = f"import ast\nfrom vllm import LLM\nLLM('m', **ast.literal_eval({text!r}))\n"
    assert check(tmp_path, {"run.py": source}) == []


def test_a_text_from_run_time_parsed_by_literal_eval_stays_open(tmp_path: Path) -> None:
    source = "import ast, sys\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True, **ast.literal_eval(sys.argv[1]))\n"
    assert check(tmp_path, {"run.py": source}) == []


# `types.MappingProxyType(d)`: a read-only view reads as the dict

PRESETS = (
    "import types\n"
    "from types import MappingProxyType\n"
    "from vllm import LLM\n"
    "PRESETS = VIEW({\n"
    "    'plain': None,\n"
    "    'ngram': {'method': 'ngram', 'num_speculative_tokens': 4, 'prompt_lookup_max': 4, 'rejection_sample_method': METHOD},\n"
    "})\n"
    "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs', speculative_config=PRESETS['ngram'])\n"
)


@pytest.mark.parametrize("view", ["MappingProxyType", "types.MappingProxyType"])
def test_a_preset_read_through_a_mapping_proxy_is_the_dict_s(tmp_path: Path, view: str) -> None:
    source = PRESETS.replace("VIEW", view).replace("METHOD", "'synthetic'")
    assert check(tmp_path, {"run.py": source}) == [("run.py", 6, "RPL306")]


def test_a_preset_of_a_mapping_proxy_with_strict_sampling_is_clean(tmp_path: Path) -> None:
    source = PRESETS.replace("VIEW", "MappingProxyType").replace("METHOD", "'strict'")
    assert check(tmp_path, {"run.py": source}) == []
