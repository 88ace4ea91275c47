"""A module that names no replay word but loads a config file from its own place (`json.load`,
`yaml.safe_load` of a path built from `__file__`): the value flow reads it only when a file it
opens may hold the mask, and the result still depends on those files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config

_MODULE = (
    "import json, os\nimport yaml\nfrom pathlib import Path\nfrom vllm import LLM\n\n"
    "HERE = os.path.dirname(os.path.abspath(__file__))\n\n\n"
    "def engine_kwargs():\n    with {opened} as handle:\n        return {loader}(handle)\n\n\n"
    "llm = LLM('m', **engine_kwargs())\n"
)
_OPENED = {
    "open": 'open(os.path.join(HERE, "configs", "engine.{suffix}"))',
    "Path.open": '(Path(__file__).parent / "configs" / "engine.{suffix}").open()',
}
_LOADERS = {"json": "json.load", "yaml": "yaml.safe_load"}
_WRONG = {
    "json": '{"return_sampling_mask": true, "logprobs_mode": "raw_logprobs"}',
    "yaml": "return_sampling_mask: true\nlogprobs_mode: raw_logprobs\n",
}
_CLEAN = {"json": '{"max_model_len": 4096, "seed": 3}', "yaml": "max_model_len: 4096\nseed: 3\n"}


def _check(root: Path, config: str, suffix: str, opened: str):
    (root / "configs").mkdir(exist_ok=True)
    (root / "configs" / f"engine.{suffix}").write_text(config)
    module = _MODULE.format(opened=_OPENED[opened].format(suffix=suffix), loader=_LOADERS[suffix])
    (root / "run.py").write_text(module)
    path = str(root / "run.py")
    return Checker(Config(), roots=(os.path.realpath(root),)).check_data(path, module.encode())


@pytest.mark.parametrize("suffix", ["json", "yaml"])
@pytest.mark.parametrize("opened", list(_OPENED))
def test_the_mask_in_the_loaded_file_is_found(tmp_path, suffix: str, opened: str) -> None:
    result = _check(tmp_path, _WRONG[suffix], suffix, opened)
    assert [finding.code for finding in result.findings] == ["RPL003"]
    assert result.findings[0].span.path.endswith(f"engine.{suffix}")


@pytest.mark.parametrize("suffix", ["json", "yaml"])
@pytest.mark.parametrize("opened", list(_OPENED))
def test_a_loaded_file_without_the_mask_leaves_the_module_clean_and_is_still_a_dependency(tmp_path, suffix: str, opened: str) -> None:
    result = _check(tmp_path, _CLEAN[suffix], suffix, opened)
    assert result.findings == []
    # an edit that turns the mask on in the config re-judges the module
    assert any(path.endswith(f"engine.{suffix}") for path in result.dependencies)


def _check_script(root: Path, relative: str, module: str):
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(module)
    return Checker(Config(), roots=(os.path.realpath(root),)).check_data(str(path), module.encode())


_FROM_WORKING_FOLDER = "import json\nfrom vllm import LLM\nwith open('configs/engine.json') as f:\n    kw = json.load(f)\nLLM('m', **kw)\n"


def test_a_script_beside_the_file_it_opens_from_the_working_folder_reads_it(tmp_path) -> None:
    # `python run.py` where run.py and configs/ are: the file the program opens when it runs there
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "engine.json").write_text(_WRONG["json"])
    result = _check_script(tmp_path, "run.py", _FROM_WORKING_FOLDER)
    assert [(finding.code, os.path.basename(finding.span.path)) for finding in result.findings] == [("RPL003", "engine.json")]


def test_a_script_whose_working_folder_path_is_not_beside_it_stays_unknown(tmp_path) -> None:
    # scripts/run.py opening configs/engine.json: run from the top or from scripts/, the tree does not say
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "engine.json").write_text(_WRONG["json"])
    result = _check_script(tmp_path, "scripts/run.py", _FROM_WORKING_FOLDER)
    assert result.findings == []
