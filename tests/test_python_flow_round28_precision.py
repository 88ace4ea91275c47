"""What held-out round 28 made the value flow stop reporting (a false finding in a clean case).

TIGERScore's `TIGERScorer(model_name, quantized=False, use_vllm=False)` builds its vLLM engine
under `if use_vllm:` in `__init__`, and the class's only caller in the tree (the module's
`__main__`) leaves `use_vllm` at its default: the engine is never built. A flag a call site of
the tree decides (the parameter's default, or a literal the caller passes), read as a parameter
or as `self`'s attribute in a method, decides the branch as a comparison with literals does
(round 27). A class with no caller in the tree, a caller passing a run-time value or an option's
value, or another caller that takes the branch keeps the launch."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SCORER = (
    "class TIGERScorer(object):\n"
    "    def __init__(self, model_name, quantized=False, use_vllm=False):\n"
    "        self.model_name = model_name\n"
    "        self.use_vllm = use_vllm\n"
    "        if use_vllm:\n"
    "            import vllm\n"
    "\n"
    "            self.model = vllm.LLM(model_name, return_sampling_mask=True)\n"
    "        else:\n"
    "            from transformers import AutoModelForCausalLM\n"
    "\n"
    "            self.model = AutoModelForCausalLM.from_pretrained(model_name)\n"
    "\n"
    "\n"
)
ENGINE_LINE = 8
MAIN = "if __name__ == '__main__':\n    scorer = TIGERScorer({args})\n"


def _scorer(args: str, prelude: str = "") -> dict[str, str]:
    return {"tigerscore.py": prelude + SCORER + MAIN.replace("{args}", args)}


@pytest.mark.parametrize(
    "args",
    ["model_name='TIGER-Lab/TIGERScore-7B'", "'m', use_vllm=False", "'m', False, False", "'m', quantized=True"],
    ids=["default", "false-keyword", "false-positional", "other-keyword"],
)
def test_a_flag_the_only_caller_leaves_false_never_builds_the_engine(tmp_path: Path, args: str) -> None:
    assert check(tmp_path, _scorer(args)) == []


def test_a_caller_that_sets_the_flag_is_judged(tmp_path: Path) -> None:
    assert check(tmp_path, _scorer("'m', use_vllm=True")) == [("tigerscore.py", ENGINE_LINE, "RPL003")]


def test_a_class_no_caller_of_the_tree_makes_keeps_its_launch(tmp_path: Path) -> None:
    assert check(tmp_path, {"tigerscore.py": SCORER}) == [("tigerscore.py", ENGINE_LINE, "RPL003")]


def test_another_caller_that_takes_the_branch_keeps_the_launch(tmp_path: Path) -> None:
    files = _scorer("'m'")
    files["serve.py"] = "from tigerscore import TIGERScorer\n\nscorer = TIGERScorer('m', use_vllm=True)\n"
    assert check(tmp_path, files) == [("tigerscore.py", ENGINE_LINE, "RPL003")]


@pytest.mark.parametrize(
    ("args", "prelude"),
    [
        ("'m', use_vllm=sys.argv[1] == 'vllm'", "import sys\n"),
        ("'m', use_vllm=bool(os.environ['USE_VLLM'])", "import os\n"),
        ("'m', **json.load(open(sys.argv[1]))", "import json\nimport sys\n"),
    ],
    ids=["argv", "environment", "spread-of-a-run-time-mapping"],
)
def test_a_run_time_value_keeps_the_launch(tmp_path: Path, args: str, prelude: str) -> None:
    shifted = ENGINE_LINE + prelude.count("\n")
    assert check(tmp_path, _scorer(args, prelude)) == [("tigerscore.py", shifted, "RPL003")]


def test_an_option_s_default_keeps_the_launch_on_its_path(tmp_path: Path) -> None:
    prelude = "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--use_vllm', action='store_true')\nargs = parser.parse_args()\n"
    found = check(tmp_path, _scorer("'m', use_vllm=args.use_vllm", prelude))
    assert found == [("tigerscore.py", ENGINE_LINE + 5, "RPL003")]


# -- the same flag in other spellings ----------------------------------------------------------------

LOADER = (
    "from vllm import LLM\n"
    "\n"
    "\n"
    "class Scorer:\n"
    "    def __init__(self, model, use_vllm=False):\n"
    "        self.model = model\n"
    "        self.use_vllm = use_vllm\n"
    "\n"
    "    def load(self):\n"
    "        if {test}:\n"
    "            return LLM(self.model, return_sampling_mask=True)\n"
    "        return None\n"
    "\n"
    "\n"
    "scorer = Scorer('m'{passed})\n"
    "scorer.load()\n"
)


@pytest.mark.parametrize("test", ["self.use_vllm", "self.use_vllm is True", "not self.use_vllm is False", "self.use_vllm is not False"])
def test_self_s_flag_in_a_method_of_an_object_made_with_its_default(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, {"scorer.py": LOADER.replace("{test}", test).replace("{passed}", "")}) == []


def test_self_s_flag_the_construction_sets_is_judged(tmp_path: Path) -> None:
    text = LOADER.replace("{test}", "self.use_vllm").replace("{passed}", ", use_vllm=True")
    assert check(tmp_path, {"scorer.py": text}) == [("scorer.py", 11, "RPL003")]


BUILD = (
    "from vllm import LLM\n"
    "\n"
    "\n"
    "def build(model, use_hf=True):\n"
    "    if not use_hf:\n"
    "        return LLM(model, return_sampling_mask=True)\n"
    "    return None\n"
    "\n"
    "\n"
    "build({args})\n"
)


@pytest.mark.parametrize(("args", "found"), [("'m'", []), ("'m', use_hf=False", [("build.py", 6, "RPL003")])])
def test_a_function_s_flag_its_caller_decides(tmp_path: Path, args: str, found: list) -> None:
    assert check(tmp_path, {"build.py": BUILD.replace("{args}", args)}) == found


def test_a_text_parameter_s_truth_is_not_read_as_a_flag(tmp_path: Path) -> None:
    text = BUILD.replace("use_hf=True", "hf_path=''").replace("not use_hf", "hf_path").replace("build({args})", "build('m')")
    assert check(tmp_path, {"build.py": text}) == [("build.py", 6, "RPL003")]


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (("def build(", "@functools.lru_cache\ndef build("), 8),  # wrapped: whoever calls the wrapper is not read
        (("build('m')\n", "build('m')\nBUILDERS = {'vllm': build}\n"), 7),  # handed on: called with anything
    ],
    ids=["decorated", "handed-on"],
)
def test_a_function_called_otherwise_too_keeps_its_launch(tmp_path: Path, change: tuple[str, str], line: int) -> None:
    text = "import functools\n" + BUILD.replace("build({args})", "build('m')").replace(*change)
    assert check(tmp_path, {"build.py": text}) == [("build.py", line, "RPL003")]
