"""Issue 27, item 4: a config file of the tree named from the module's own place, spelt
`Path(__file__).parent.joinpath("conf", "vllm.yaml")`, read as text and parsed
(`json.loads(path.read_text())`, `yaml.safe_load(path.read_text())`), or through a path the
function binds (`path = HERE / "conf" / "vllm.yaml"` in `main()`), is read; the file's finding is
at its line. A path the function may bind otherwise, a parameter of the same name as a module's
path, or a file named when the program runs stays unknown. The file names no replay word: the
prefilter lets it through for the config it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# Alone, each is an engine mapping whose launch is not known (no finding); read by the program,
# the launch lacks `logprobs_mode`, reported at the mask.
YAML = "max_model_len: 4096\nreturn_sampling_mask: true\n"
JSON = '{"max_model_len": 4096,\n "return_sampling_mask": true}\n'
HEAD = "import json, sys\nfrom pathlib import Path\n\nimport yaml\nfrom vllm import LLM\n\nHERE = Path(__file__).parent\n"


@pytest.mark.parametrize(
    ("read", "expected"),
    [
        ("cfg = yaml.safe_load(open(Path(__file__).parent.joinpath('conf', 'vllm.yaml')))", ("vllm.yaml", 2)),
        ("cfg = yaml.safe_load(HERE.joinpath('conf/vllm.yaml').read_text())", ("vllm.yaml", 2)),
        ("cfg = json.loads(Path(__file__).parent.joinpath('conf', 'vllm.json').read_text())", ("vllm.json", 2)),
        ("cfg = json.loads((HERE / 'conf' / 'vllm.json').read_text(encoding='utf-8'))", ("vllm.json", 2)),
        ("path = HERE / 'conf' / 'vllm.json'\ncfg = json.loads(path.read_text())", ("vllm.json", 2)),
    ],
)
def test_a_config_named_from_the_module_s_place_is_read(tmp_path: Path, read: str, expected: tuple) -> None:
    files = {"conf/vllm.yaml": YAML, "conf/vllm.json": JSON, "run.py": HEAD + read + "\nLLM('m', **cfg)\n"}
    assert check(tmp_path, files) == [(*expected, "RPL003")]


FUNCTION = "def main():\n    BIND\n    cfg = yaml.safe_load(path.read_text())\n    return LLM('m', **cfg)\n\n\nmain()\n"


def test_a_path_the_function_binds_is_read(tmp_path: Path) -> None:
    bind = "path = Path(__file__).resolve().parent / 'conf' / 'vllm.yaml'"
    files = {"conf/vllm.yaml": YAML, "run.py": HEAD + FUNCTION.replace("BIND", bind)}
    assert check(tmp_path, files) == [("vllm.yaml", 2, "RPL003")]


@pytest.mark.parametrize(
    "run",
    [
        FUNCTION.replace("BIND", "path = Path(sys.argv[1])"),
        FUNCTION.replace("BIND", "path = HERE / 'conf' / 'vllm.yaml'\n    if sys.argv[1:]:\n        path = Path(sys.argv[1])"),
        "path = HERE / 'conf' / 'vllm.yaml'\n\n\ndef main(path):\n    return LLM('m', **yaml.safe_load(path.read_text()))\n\n\n"
        "main(Path(sys.argv[1]))\n",  # the parameter, not the module's path
        "cfg = json.loads(Path(sys.argv[1]).read_text())\nLLM('m', **cfg)\n",
    ],
)
def test_a_path_named_at_run_time_or_bound_otherwise_is_not_read(tmp_path: Path, run: str) -> None:
    assert check(tmp_path, {"conf/vllm.yaml": YAML, "run.py": HEAD + run}) == []


def test_a_config_that_sets_the_mode_is_silent(tmp_path: Path) -> None:
    read = "cfg = json.loads(HERE.joinpath('conf', 'vllm.json').read_text())\nLLM('m', **cfg)\n"
    files = {"conf/vllm.json": JSON.replace("true}", 'true, "logprobs_mode": "processed_logprobs"}'), "run.py": HEAD + read}
    assert check(tmp_path, files) == []
