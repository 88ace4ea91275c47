"""What held-out round 43's TapeAgents cases (tests/data/python_flow/h43_tapeagents_*) taught of a
shell command string's run-time words: a piece that is not known but is certainly a number
(`{int(time.time())}`, `port = 8080 + i`) cannot split into flags, so the command stays closed;
any other piece not known (a text from the environment, `round(x)` of an object) may be any words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SERVE = """import os
import subprocess
import time

KWARGS = {{{flags}}}


def main():
    for i in range(2):
        port = {port}
        kwargs_str = " ".join([f"--{{k}} {{v}}" for k, v in KWARGS.items()])
        cmd = (
            f"OUTLINES_CACHE_DIR=/tmp/.outlines_{{{stamp}}} "
            f"python -m vllm.entrypoints.openai.api_server --model m --port {{port}} "
            f"{{kwargs_str}}"
        )
        subprocess.Popen(cmd, shell=True)
"""
NO_SCALE_OUT = '"return-sampling-mask": "", "logprobs-mode": "processed_logprobs"'
NO_MODE = '"enable-scale-out": "", "return-sampling-mask": ""'
ALL_THREE = '"enable-scale-out": "", "return-sampling-mask": "", "logprobs-mode": "processed_logprobs"'
FLAGS_LINE = 5


def tree(flags: str, port: str = "8080 + i", stamp: str = "int(time.time())") -> dict[str, str]:
    return {"serve.py": SERVE.format(flags=flags, port=port, stamp=stamp)}


def test_a_mask_without_scale_out_is_reported_past_number_words(tmp_path: Path) -> None:
    assert check(tmp_path, tree(NO_SCALE_OUT)) == [("serve.py", FLAGS_LINE, "RPL301")]


def test_a_mask_without_a_mode_is_reported_past_number_words(tmp_path: Path) -> None:
    assert check(tmp_path, tree(NO_MODE)) == [("serve.py", FLAGS_LINE, "RPL003")]


def test_scale_out_mask_and_mode_with_number_words_are_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree(ALL_THREE)) == []


@pytest.mark.parametrize("port", ["i - 1 + 8080", "len(os.sched_getaffinity(0)) + 8000 - 1"])
def test_other_spellings_of_a_number_word(tmp_path: Path, port: str) -> None:
    assert check(tmp_path, tree(NO_SCALE_OUT, port=port)) == [("serve.py", FLAGS_LINE, "RPL301")]


@pytest.mark.parametrize(
    "port",
    [
        'os.environ["PORT"]',  # the run's text may hold `8080 --enable-scale-out`
        "round(os.environ.get('PORT'))",  # a class may return anything from `round`
        "'8080' + os.environ['SUFFIX']",  # a text put together
    ],
)
def test_a_word_that_may_be_any_text_keeps_the_launch_open(tmp_path: Path, port: str) -> None:
    assert check(tmp_path, tree(NO_SCALE_OUT, port=port)) == []


def test_int_bound_by_the_module_is_not_taken_for_the_builtin(tmp_path: Path) -> None:
    text = tree(NO_SCALE_OUT)["serve.py"].replace("--port {port}", "--port {int()}")
    assert check(tmp_path / "builtin", {"serve.py": text}) == [("serve.py", FLAGS_LINE, "RPL301")]
    files = {"serve.py": text.replace("import time\n", "import time\n\n\ndef int():\n    return os.environ['EXTRA']\n")}
    assert check(tmp_path / "shadowed", files) == []
