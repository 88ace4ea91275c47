"""What held-out round 30 taught the value flow about command lines a program builds in steps (h-fxA).

agent-lightning's `vllm_server(model_path, port, ..., return_sampling_mask=True, logprobs_mode=None)`
adds `--return-sampling-mask --enable-scale-out` under `if return_sampling_mask:` and `--logprobs-mode`
under `if logprobs_mode is not None:`: each branch is decided with what the helper's callers pass,
also a branch past the one the list was last bound under, and a word the flow found never added is
not on the command line (the libcst pass reads every branch's words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

HELPER = (
    "import subprocess\n"
    "from typing import Optional\n"
    "\n"
    "\n"
    "def vllm_server(model_path, port, return_sampling_mask: bool = True, logprobs_mode: Optional[str] = {mode}):\n"
    '    args = ["--port", str(port)]\n'
    "    if return_sampling_mask:\n"
    '        args += ["--return-sampling-mask", "--enable-scale-out"]\n'
    "    if logprobs_mode is not None:\n"
    '        args += ["--logprobs-mode", logprobs_mode]\n'
    '    return subprocess.Popen(["vllm", "serve", model_path, *args])\n'
    "\n"
    "\n"
    "def main():\n"
    '    vllm_server("m", 8000{passed})\n'
)
FLAG_LINE = 8


@pytest.mark.parametrize(
    ("mode", "passed", "expected"),
    [
        ("None", "", [("serve.py", FLAG_LINE, "RPL003")]),  # the mode's branch not taken
        ('"raw_logprobs"', "", [("serve.py", 5, "RPL003")]),  # the mode's default given, where it is decided
        ('"processed_logprobs"', "", []),
        ("None", ', logprobs_mode="processed_logprobs"', []),  # the caller passes the mode
        ("None", ", return_sampling_mask=False", []),  # the caller turns the mask off
        ("None", ", logprobs_mode=input()", []),  # a mode from the run: open
    ],
)
def test_a_flag_list_grown_under_branches_its_callers_decide(tmp_path: Path, mode: str, passed: str, expected: list) -> None:
    assert check(tmp_path, {"serve.py": HELPER.format(mode=mode, passed=passed)}) == expected


def test_a_step_in_another_arm_of_the_bindings_branch_leaves_the_list_open(tmp_path: Path) -> None:
    text = HELPER.format(mode="None", passed="").replace(
        "    if logprobs_mode is not None:\n", "    else:\n        args = []\n    if logprobs_mode is not None:\n"
    )
    assert check(tmp_path, {"serve.py": text}) == [("serve.py", FLAG_LINE, "RPL003")]
