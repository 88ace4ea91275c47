"""What held-out round 35 (tests/data/python_flow/h35_marcoo1_start_vllm_server_no_top_k) made the
value flow follow: a module-level name the top level never binds, set by the one function that
declares it `global`.

Marco-o1's start_vllm_server.py sets `global llm, tokenizer` then `llm = load_model(path)` in
`main()`, and a Flask route hands `llm` to a helper whose `SamplingParams` sets no top_k. A use
of the global in a function was read only when the module bound the name too (`llm = None`), or
when the function called a method on it itself; handed on as an argument, the name read nothing.
Now a function's read of such a name reads that one assignment. A second write keeps it unknown.

The route's temperature comes from the HTTP body, but the request leaves top_k out whatever it
is: vLLM 0.34.0 refuses it (the greedy message at 0, the top_k one above), and RPL102 reports
the top_k it certainly lacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

HELPER = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def load_model(path):\n"
    "    llm = LLM(model=path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    return llm\n"
    "\n"
    "\n"
    "def generate_response(llm, prompt, temperature=0, n=1):\n"
    "    sampling_params = SamplingParams(max_tokens=64, temperature=temperature, top_p=0.9, n=n{top_k})\n"  # line 10
    "    return llm.generate([prompt], sampling_params=sampling_params)\n"
    "\n"
    "\n"
)

FLASK = (
    "from flask import Flask, request, jsonify\n"
    "app = Flask(__name__)\n"
    "\n"
    "\n"
    "@app.route('/generate', methods=['POST'])\n"
    "def generate():\n"
    "    data = request.json\n"
    "    temperature = float(data.get('temperature', 0.7))\n"
    "    return jsonify(generate_response(llm, data['prompt'], temperature, int(data.get('n', 1))))\n"
    "\n"
    "\n"
)

MAIN = (
    "def main():\n    global llm, tokenizer\n    tokenizer = None\n    llm = load_model('m')\n\n\nif __name__ == '__main__':\n    main()\n"
)

# FastAPI's spelling: the engine made at startup, a handler handing it on
STARTUP = (
    "from fastapi import FastAPI\n"
    "app = FastAPI()\n"
    "\n"
    "\n"
    "@app.on_event('startup')\n"
    "async def startup():\n"
    "    global llm\n"
    "    llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "\n"
    "@app.post('/generate')\n"
    "async def generate(body: dict):\n"
    "    return generate_response(llm, body['prompt'], body.get('temperature', 1.0))\n"
)


@pytest.mark.parametrize("rest", [FLASK + MAIN, STARTUP], ids=["flask_main", "fastapi_startup"])
def test_a_global_set_by_one_function_and_handed_to_a_helper_is_the_replay_engine(tmp_path: Path, rest: str) -> None:
    assert check(tmp_path, {"server.py": HELPER.format(top_k="") + rest}) == [("server.py", 10, "RPL102")]


def test_the_request_that_bounds_top_k_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"server.py": HELPER.format(top_k=", top_k=20") + FLASK + MAIN}) == []


def test_a_global_two_functions_set_is_not_known(tmp_path: Path) -> None:
    # `reload()` may run first or never: which engine the route reads is not known
    setters = "def main():\n    global llm\n    llm = LLM(model='m')\n\n\ndef reload():\n    global llm\n    llm = load_model('m')\n"
    assert check(tmp_path, {"server.py": HELPER.format(top_k="") + FLASK + setters}) == []


def test_a_global_its_function_sets_without_replay_stays_clean(tmp_path: Path) -> None:
    main = MAIN.replace("llm = load_model('m')", "llm = LLM(model='m')")
    assert check(tmp_path, {"server.py": HELPER.format(top_k="") + FLASK + main}) == []
