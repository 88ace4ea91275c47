"""What held-out round 30 taught about a program of the tree that builds its engine from vLLM's
engine options on its own command line, and the requests it sends that engine (h-fxK).

openchat's `ochat/serving/openai_api_server.py` grows its parser with `AsyncEngineArgs.add_cli_args(parser)`,
builds `engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))` under
`if __name__ == "__main__":`, and its chat route sends `engine.generate(..., sampling_params)`;
`serve.sh` runs it as `python -m ochat.serving.openai_api_server --model M --return-sampling-mask ...`.
The module names no replay word: the script's words turn the mask on. The script's launch (the
engine the program builds from those words) takes the requests the program sends that engine,
read by the value flow, and a finding on one is reported at the program's line. In the program
itself, `from_cli_args(args)` is the engine `from_engine_args` builds, so a request reaches the
engine whose mask the program turns on with `set_defaults`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SERVER = (
    "import fastapi\n"
    "import uvicorn\n"
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
    "async def create_chat_completion(raw_request: fastapi.Request):\n"
    "    body = await raw_request.json()\n"
    '    sampling_params = SamplingParams(n=body.get("n", 1), temperature=body["temperature"]{more})\n'
    '    results = engine.generate({{"prompt": body["prompt"]}}, sampling_params=sampling_params, request_id="1")\n'
    "    return [r async for r in results]\n"
    "\n"
    "\n"
    'if __name__ == "__main__":\n'
    "    parser = FlexibleArgumentParser(description='API server')\n"
    '    parser.add_argument("--host", type=str, default="localhost")\n'
    '    parser.add_argument("--port", type=int, default=18888)\n'
    "    parser = AsyncEngineArgs.add_cli_args(parser)\n"
    "    args = parser.parse_args()\n"
    "    args.max_num_batched_tokens = max(args.max_num_batched_tokens or 0, 8192)\n"
    "    engine_args = AsyncEngineArgs.from_cli_args(args)\n"
    "    engine = AsyncLLMEngine.from_engine_args(engine_args)\n"
    "    uvicorn.run(app, host=args.host, port=args.port)\n"
)
REQUEST_LINE = 15
REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs"


def _served(tmp_path: Path, script: str, more: str = "", server: str = SERVER) -> list:
    files = {
        "ochat/__init__.py": "",
        "ochat/serving/__init__.py": "",
        "ochat/serving/api_server.py": server.format(more=more),
        "serve.sh": "#!/bin/bash\n" + script + "\n",
    }
    return check(tmp_path, files)


def test_a_route_request_without_top_k_reaches_the_engine_the_script_s_words_build(tmp_path: Path) -> None:
    script = f"python -m ochat.serving.api_server --model m --port 8001 {REPLAY}"
    assert _served(tmp_path, script) == [("api_server.py", REQUEST_LINE, "RPL102")]


def test_the_same_request_with_top_k_is_clean(tmp_path: Path) -> None:
    assert _served(tmp_path, f"python -m ochat.serving.api_server --model m {REPLAY}", more=", top_k=50") == []


def test_a_script_that_does_not_turn_the_mask_on_asks_nothing_of_the_requests(tmp_path: Path) -> None:
    assert _served(tmp_path, "python -m ochat.serving.api_server --model m --max-model-len 2048") == []


def test_a_greedy_request_gets_both_request_findings(tmp_path: Path) -> None:
    server = SERVER.replace('temperature=body["temperature"]', "temperature=0.0")
    found = _served(tmp_path, f"python -m ochat.serving.api_server --model m {REPLAY}", server=server)
    assert found == [("api_server.py", REQUEST_LINE, "RPL101"), ("api_server.py", REQUEST_LINE, "RPL102")]


def test_the_request_is_reported_beside_the_engine_the_script_gets_wrong(tmp_path: Path) -> None:
    # the mask without processed logprobs: the script's engine finding, and the request's beside it
    found = _served(tmp_path, "python -m ochat.serving.api_server --model m --return-sampling-mask")
    assert found == [("api_server.py", REQUEST_LINE, "RPL102"), ("serve.sh", 2, "RPL003")]


def test_a_program_that_names_the_mask_itself_reports_the_request_once(tmp_path: Path) -> None:
    # the module passes the prefilter on its own; its own launch leaves the mask to the script's words
    server = SERVER.replace("    engine_args =", '    if args.return_sampling_mask:\n        print("replay")\n    engine_args =')
    found = _served(tmp_path, f"python -m ochat.serving.api_server --model m {REPLAY}", server=server)
    assert found == [("api_server.py", REQUEST_LINE, "RPL102")]


# vLLM's old `api_server.py` spelling: one line builds the engine in a function that declares the
# global, and the script runs the file by its path
ONE_LINE = SERVER.replace(
    "    engine_args = AsyncEngineArgs.from_cli_args(args)\n    engine = AsyncLLMEngine.from_engine_args(engine_args)\n",
    "    start(args)\n",
).replace(
    'if __name__ == "__main__":\n',
    "def start(args):\n"
    "    global engine\n"
    "    engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args), start_engine_loop=True)\n"
    "\n"
    "\n"
    'if __name__ == "__main__":\n',
)


@pytest.mark.parametrize(("more", "expected"), [("", [("api_server.py", REQUEST_LINE, "RPL102")]), (", top_k=20", [])])
def test_the_engine_built_in_a_function_of_a_file_the_script_runs_by_path(tmp_path: Path, more: str, expected: list) -> None:
    assert _served(tmp_path, f"python ochat/serving/api_server.py --model m {REPLAY}", more=more, server=ONE_LINE) == expected


def test_a_request_to_another_engine_of_the_program_is_not_the_launch_s(tmp_path: Path) -> None:
    # the route asks a judge engine the program builds itself, without replay
    server = (
        SERVER.replace("engine.generate(", "judge.generate(")
        .replace("engine = None\n", "engine = None\njudge = None\n")
        .replace("    uvicorn.run", '    judge = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="j"))\n    uvicorn.run')
    )
    assert _served(tmp_path, f"python -m ochat.serving.api_server --model m {REPLAY}", server=server) == []


# FastChat's worker: the program turns the mask on itself (`set_defaults`), with processed logprobs;
# the engine `from_engine_args(AsyncEngineArgs.from_cli_args(args))` builds is the one its request reaches.
WORKER = (
    "import argparse\n"
    "from vllm import AsyncLLMEngine, SamplingParams\n"
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "\n"
    "\n"
    "async def generate(engine, params):\n"
    '    sampling_params = SamplingParams(temperature=float(params.get("temperature", 1.0)){more})\n'
    '    return engine.generate(params["prompt"], sampling_params, "1")\n'
    "\n"
    "\n"
    'if __name__ == "__main__":\n'
    "    parser = argparse.ArgumentParser()\n"
    "    parser = AsyncEngineArgs.add_cli_args(parser)\n"
    '    parser.set_defaults(return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    "    args = parser.parse_args()\n"
    "    engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))\n"
    "    generate(engine, {{'prompt': 'hi'}})\n"
)


@pytest.mark.parametrize(("more", "expected"), [("", [("worker.py", 7, "RPL102")]), (", top_k=40", [])])
def test_a_request_reaches_the_engine_built_from_the_program_s_own_namespace(tmp_path: Path, more: str, expected: list) -> None:
    assert check(tmp_path, {"worker.py": WORKER.format(more=more)}) == expected


# openchat's own spelling: no `engine = None` above the route (the name is bound only under
# `__main__`), the request sent with keywords only, and options of its own that take any number of words
REAL = (
    SERVER.replace("engine = None\n", "")
    .replace(
        'engine.generate({{"prompt": body["prompt"]}}, sampling_params=sampling_params, request_id="1")',
        'engine.generate(prompt=None, prompt_token_ids=body["ids"], sampling_params=sampling_params, request_id="1")',
    )
    .replace(
        '    parser.add_argument("--port"',
        '    parser.add_argument("--api-keys", type=str, nargs="*", default=[])\n    parser.add_argument("--port"',
    )
)


@pytest.mark.parametrize(("more", "expected"), [("", [("api_server.py", 14, "RPL102")]), (", top_k=50", [])])
def test_openchat_s_own_spelling(tmp_path: Path, more: str, expected: list) -> None:
    assert _served(tmp_path, f"python -m ochat.serving.api_server --model m --port 8001 {REPLAY}", more=more, server=REAL) == expected
