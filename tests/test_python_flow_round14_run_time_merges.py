"""Issue 27, item 1: a mapping read when the program runs (a file named on its command line),
merged after keys written in the code, may overwrite them: those keys are unknown (the launch
open, no finding rests on them). Keys written after it, keys a call passes beside it (Python
refuses a repeated keyword) and a file of the tree read by a literal path stay known; a
`fire.Fire` parameter's JSON default (`vllm_config: str = "{}"`) is the program's default when
run as written, and a finding judged with it says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

RAW = '{"return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}'
HEAD = "import json, sys\nfrom pathlib import Path\nimport yaml\nfrom vllm import LLM\n\nHERE = Path(__file__).parent\n"


@pytest.mark.parametrize(
    "merged",
    [
        f"kw = {RAW}\nkw.update(json.load(open(sys.argv[1])))\nLLM('m', **kw)\n",
        f"kw = {RAW}\nkw |= yaml.safe_load(open(sys.argv[1]))\nLLM('m', **kw)\n",
        f"kw = {RAW}\nLLM('m', **{{**kw, **json.load(open(sys.argv[1]))}})\n",
        f"kw = {RAW}\nLLM('m', **(kw | json.load(open(sys.argv[1]))))\n",
        f"kw = {RAW}\nLLM('m', **dict(kw, **json.load(open(sys.argv[1]))))\n",
        f"kw = {RAW}\nif len(sys.argv) > 1:\n    kw.update(json.load(open(sys.argv[1])))\nLLM('m', **kw)\n",
        f"def main(path):\n    kw = {RAW}\n    with open(path) as f:\n        kw.update(yaml.safe_load(f))\n    LLM('m', **kw)\n\n\nmain(sys.argv[1])\n",
    ],
)
def test_keys_a_file_named_at_run_time_may_overwrite_are_not_judged(tmp_path: Path, merged: str) -> None:
    assert check(tmp_path, {"run.py": HEAD + merged}) == []


@pytest.mark.parametrize(
    "merged",
    [
        f"kw = {{**json.load(open(sys.argv[1])), **{RAW}}}\nLLM('m', **kw)\n",
        "LLM('m', return_sampling_mask=True, logprobs_mode='raw_logprobs', **json.load(open(sys.argv[1])))\n",
        f"kw = {RAW}\nkw.update(json.load(open(HERE / 'engine.json')))\nLLM('m', **kw)\n",  # a file of the tree
    ],
)
def test_keys_written_after_the_run_time_data_or_beside_it_in_the_call_are_judged(tmp_path: Path, merged: str) -> None:
    found = check(tmp_path, {"run.py": HEAD + merged, "engine.json": '{"max_model_len": 4096}'})
    assert [code for _, _, code in found] == ["RPL003"]


def test_a_file_of_the_tree_that_sets_the_mode_decides_it(tmp_path: Path) -> None:
    merged = f"kw = {RAW}\nkw.update(json.load(open(HERE / 'engine.json')))\nLLM('m', **kw)\n"
    assert check(tmp_path, {"run.py": HEAD + merged, "engine.json": '{"logprobs_mode": "processed_logprobs"}'}) == []


RECORD = (
    "import sys\nfrom pathlib import Path\nimport yaml\nfrom pydantic import BaseModel\nfrom vllm import LLM\n\n\n"
    "class Engine(BaseModel):\n"
    "    model: str = 'm'\n"
    "    return_sampling_mask: bool = True\n"
    "    logprobs_mode: str = 'raw_logprobs'\n\n\n"
    "MADE\n"
    "LLM(**cfg.model_dump())\n"
)


@pytest.mark.parametrize(
    "made",
    [
        "cfg = Engine.model_validate(yaml.safe_load(open(sys.argv[1])))",
        "cfg = Engine(**yaml.safe_load(open(sys.argv[1])))",
        "with open(sys.argv[1]) as f:\n    cfg = Engine.model_validate(yaml.safe_load(f))",
    ],
)
def test_a_record_made_from_a_file_named_at_run_time_keeps_no_default_known(tmp_path: Path, made: str) -> None:
    assert check(tmp_path, {"run.py": RECORD.replace("MADE", made)}) == []


@pytest.mark.parametrize(
    "made",
    [
        "cfg = Engine()",
        "cfg = Engine.model_validate({'model': 'other'})",
        "cfg = Engine.model_validate(yaml.safe_load(open(Path(__file__).parent / 'engine.yaml')))",  # a file of the tree
    ],
)
def test_a_record_made_from_known_data_keeps_its_defaults(tmp_path: Path, made: str) -> None:
    found = check(tmp_path, {"run.py": RECORD.replace("MADE", made), "engine.yaml": "model: m2\n"})
    assert found == [("run.py", 11, "RPL003")]


FIRE = (
    "import json\nimport fire\nfrom vllm import LLM\n\n\n"
    "def infer(model: str = 'm', vllm_config: str = DEFAULT):\n"
    "    engine_args = {'model': model, 'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'}\n"
    "    engine_args.update(json.loads(vllm_config))\n"
    "    LLM(**engine_args)\n\n\n"
    "if __name__ == '__main__':\n"
    "    fire.Fire(infer)\n"
)


def test_a_fire_parameter_s_json_default_is_judged_as_written_and_the_message_says_so(tmp_path: Path) -> None:
    (tmp_path / "infer.py").write_text(FIRE.replace("DEFAULT", "'{}'"))
    found = run(tmp_path)
    assert [(f["location"]["row"], f["code"]) for f in found] == [(7, "RPL003")]
    assert "--vllm_config" in found[0]["message"] and "'{}'" in found[0]["message"]


@pytest.mark.parametrize(
    "default",
    [
        '\'{"logprobs_mode": "processed_logprobs"}\'',  # the default sets it
        "'not json'",  # not a mapping json reads
    ],
)
def test_a_fire_default_that_sets_the_mode_or_cannot_be_read_is_silent(tmp_path: Path, default: str) -> None:
    assert check(tmp_path, {"infer.py": FIRE.replace("DEFAULT", default)}) == []
