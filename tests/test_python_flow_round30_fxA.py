"""What held-out round 30 taught the value flow about command lines a program builds in steps
and programs a shell script runs (h-fxA).

agent-lightning's `vllm_server(model_path, port, ..., return_sampling_mask=True, logprobs_mode=None)`
adds `--return-sampling-mask --enable-scale-out` under `if return_sampling_mask:` and `--logprobs-mode`
under `if logprobs_mode is not None:`: each branch is decided with what the helper's callers pass,
also a branch past the one the list was last bound under, and a word the flow found never added is
not on the command line (the libcst pass reads every branch's words).

openchat's server reads vLLM's engine options (`AsyncEngineArgs.add_cli_args(parser)`) and builds its
engine from them (`AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))`): the
options are those every run of the program by the tree's shell scripts gives, and its routes'
requests go to that engine. A run whose words are not all known, or runs that disagree, leave the
options as before."""

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


SERVER = (
    "import fastapi\n"
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "from vllm.engine.async_llm_engine import AsyncLLMEngine\n"
    "from vllm.sampling_params import SamplingParams\n"
    "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "\n"
    "app = fastapi.FastAPI()\n"
    "engine = None\n"
    "\n"
    "\n"
    '@app.post("/v1/chat/completions")\n'
    "async def create_chat_completion(request: dict):\n"
    '    params = SamplingParams(temperature=request["temperature"]{top_k})\n'
    '    return engine.generate({{"prompt": request["prompt"]}}, sampling_params=params, request_id="1")\n'
    "\n"
    "\n"
    'if __name__ == "__main__":\n'
    "    parser = FlexibleArgumentParser()\n"
    '    parser.add_argument("--port", type=int, default=18888)\n'
    "    parser = AsyncEngineArgs.add_cli_args(parser)\n"
    "    args = parser.parse_args()\n"
    "    if args.return_sampling_mask:\n"
    '        print("serving replay masks")\n'
    "    engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))\n"
)
REQUEST_LINE = 13
RUN = "python -m server.api --model m --port 8001 --return-sampling-mask --logprobs-mode processed_logprobs{more}\n"


def _server(tmp_path: Path, top_k: str, *scripts: str) -> list:
    files = {"server/__init__.py": "", "server/api.py": SERVER.format(top_k=top_k)}
    files.update((f"run{n}.sh", "#!/bin/bash\n" + script) for n, script in enumerate(scripts))
    return check(tmp_path, files)


def test_a_route_request_reaches_the_engine_a_script_runs_the_program_with(tmp_path: Path) -> None:
    assert _server(tmp_path, "", RUN.format(more="")) == [("api.py", REQUEST_LINE, "RPL102")]


def test_the_same_request_with_top_k_is_clean(tmp_path: Path) -> None:
    assert _server(tmp_path, ", top_k=50", RUN.format(more="")) == []


@pytest.mark.parametrize(
    "scripts",
    [
        ("python -m server.api --model m\n",),  # no run turns the mask on
        ('python -m server.api --model m --return-sampling-mask "$@"\n',),  # the script's arguments: not read
        (RUN.format(more=""), "python -m server.api --model m\n"),  # runs that disagree on the mask
        (RUN.format(more=" --unknown-flag"),),  # a word neither the program's nor vLLM's
    ],
)
def test_runs_that_do_not_all_give_the_mask_leave_the_request_unjudged(tmp_path: Path, scripts: tuple) -> None:
    assert _server(tmp_path, "", *scripts) == []
