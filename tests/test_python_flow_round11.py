"""What held-out round 11 (tests/data/python_flow/h11_*) made the value flow follow, and where
each construct stops: `ast.literal_eval` of a text the flow knows (LLaMA-Factory's `vllm_config`
string), a record's post-init hook that parses a field again (`isinstance` of a known text and
`str.startswith` decided), a `types.MappingProxyType` of a dict (read as the dict), a dict
comprehension that renames the keys it keeps (lighteval's `to_vllm_dict`), and `__init__` handing
its parameter to the method that builds the engine. Each stop keeps the launch open (no finding
rests on an absent or unknown setting)."""

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


# a record's post-init hook that parses a field again, under a test of the field

RECORD = (
    "import ast\n"
    "from dataclasses import dataclass\n"
    "from vllm import LLM\n"
    "@dataclass\n"
    "class Args:\n"
    "    vllm_config: str = DEFAULT\n"
    "    def __post_init__(self):\n"
    "        if TEST:\n"
    "            self.vllm_config = ast.literal_eval(self.vllm_config)\n"
    "args = Args()\n"
    "LLM('m', **args.vllm_config)\n"
)
RAW = "\"{'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'}\""
STRING_TEST = "isinstance(self.vllm_config, str) and self.vllm_config.startswith('{')"


@pytest.mark.parametrize("test", [STRING_TEST, "isinstance(self.vllm_config, (str, bytes))", "self.vllm_config.endswith('}')"])
def test_a_field_the_post_init_parses_is_read_at_its_default_text(tmp_path: Path, test: str) -> None:
    source = RECORD.replace("DEFAULT", RAW).replace("TEST", test)
    assert check(tmp_path, {"run.py": source}) == [("run.py", 6, "RPL003")]


@pytest.mark.parametrize(
    "test",
    [
        "isinstance(self.vllm_config, dict)",  # decided against: the field stays a text, `**` of it is no mapping
        "self.vllm_config.startswith('[')",
    ],
)
def test_a_post_init_write_decided_against_leaves_the_field_as_given(tmp_path: Path, test: str) -> None:
    source = RECORD.replace("DEFAULT", RAW).replace("TEST", test)
    assert check(tmp_path, {"run.py": source}) == []


@pytest.mark.parametrize(
    "hook",
    [
        "        self.vllm_config = ast.literal_eval(self.vllm_config)\n        self.vllm_config = {}\n",  # written twice
        "        if os.environ.get('PARSE'):\n            self.vllm_config = ast.literal_eval(self.vllm_config)\n",  # run time
        "        for _ in range(1):\n            self.vllm_config = ast.literal_eval(self.vllm_config)\n",  # a loop
    ],
)
def test_a_post_init_write_not_decided_leaves_the_field_unknown(tmp_path: Path, hook: str) -> None:
    source = "import os\n" + RECORD.replace("DEFAULT", RAW).replace(
        "        if TEST:\n            self.vllm_config = ast.literal_eval(self.vllm_config)\n", hook
    )
    assert hook in source
    assert check(tmp_path, {"run.py": source}) == []


def test_a_record_built_with_a_text_of_its_own_is_parsed_from_that_text(tmp_path: Path) -> None:
    given = "\"{'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs', 'logits_processors': ['p:P']}\""
    source = RECORD.replace("DEFAULT", RAW).replace("TEST", STRING_TEST).replace("args = Args()", f"args = Args(vllm_config={given})")
    assert check(tmp_path, {"run.py": source}) == [("run.py", 10, "RPL001")]


@pytest.mark.parametrize(("test", "found"), [("isinstance(mode, str)", [("run.py", 3, "RPL003")]), ("isinstance(mode, int)", [])])
def test_a_type_test_of_a_known_text_decides_its_branch(tmp_path: Path, test: str, found: list) -> None:
    source = (
        "from vllm import LLM\nkw = {'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
        f"mode = 'raw_logprobs'\nif {test}:\n    kw['logprobs_mode'] = mode\nLLM('m', **kw)\n"
    )
    assert check(tmp_path, {"run.py": source}) == found


# a dict comprehension that renames the keys it keeps (lighteval's `to_vllm_dict`)

RENAMED = (
    "from vllm import LLM, SamplingParams\n"
    "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "d = {'temperature': 1.0, 'top_k': TOP_K, 'max_new_tokens': 64}\n"
    "NAMES = {'max_new_tokens': 'max_tokens', 'k': 'top_k'}\n"
    "x = {KEY: v for k, v in d.items() if v is not None}\n"
    "llm.generate(['a'], SamplingParams(**x))\n"
)


@pytest.mark.parametrize("key", ["NAMES.get(k, k)", "NAMES[k] if k in NAMES else k"])
def test_a_key_dropped_for_none_by_a_renaming_comprehension_is_absent(tmp_path: Path, key: str) -> None:
    source = RENAMED.replace("TOP_K", "None").replace("KEY", key)
    assert check(tmp_path, {"run.py": source}) == [("run.py", 6, "RPL102")]


def test_a_key_kept_by_a_renaming_comprehension_is_read_under_its_new_name(tmp_path: Path) -> None:
    source = RENAMED.replace("'top_k': TOP_K", "'k': 20").replace("KEY", "NAMES.get(k, k)")
    assert check(tmp_path, {"run.py": source}) == []


def test_a_key_renamed_by_a_run_time_table_leaves_the_request_open(tmp_path: Path) -> None:
    source = RENAMED.replace("'top_k': TOP_K", "'k': 20").replace("KEY", "NAMES.get(k, k)")
    source = source.replace(
        "NAMES = {'max_new_tokens': 'max_tokens', 'k': 'top_k'}", "import json, sys\nNAMES = json.load(open(sys.argv[1]))"
    )
    assert check(tmp_path, {"run.py": source}) == []


# `__init__` handing its parameter to the method that builds the engine, the object made in another module

BUILDER = (
    "from vllm import LLM\n"
    "class Model:\n"
    "    def __init__(self, config):\n"
    "        self.model = self._create(config)\n"
    "    def _create(self, config):\n"
    "        return LLM('m', return_sampling_mask=config['mask'], logprobs_mode='raw_logprobs')\n"
)


@pytest.mark.parametrize(("mask", "found"), [("True", [("model.py", 6, "RPL003")]), ("False", [])])
def test_a_parameter_init_hands_to_the_engine_s_method_is_the_construction_s(tmp_path: Path, mask: str, found: list) -> None:
    run = f"from model import Model\nModel({{'mask': {mask}}})\n"
    assert check(tmp_path, {"model.py": BUILDER, "run.py": run}) == found
