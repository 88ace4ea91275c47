"""What held-out round 27 made the value flow stop reporting (two false findings in clean cases).

LLMxMapReduce's Flask endpoint keeps a module-level `params_dict` with `"top_k": -1` and lets each
request's params overwrite it key by key (`for key, value in params.items(): if key in
params_dict: params_dict[key] = value`) before `SamplingParams(**params_dict)`: every key may hold
what a request sends, so no finding rests on the module's `-1`. A loop that lets a request change
only some keys (`if key in REQUEST_KEYS:`) leaves the others as written.

Online-DPO-R1's eval script chooses its backend with `match cfg["backend"]:` of a YAML the program
opens by its own path (`backend: hf`): the `case "vllm":` arm never runs, so its engine and greedy
request are not reported. A test that rests on a default a run may change (an option's, an
environment variable's) keeps the launch, said on its path, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

APP = (
    "from flask import Flask, request\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "params_dict = {\n"
    "    'temperature': 1.0,\n"
    "    'top_k': -1,\n"
    "    'max_tokens': 16,\n"
    "}\n"
    "REQUEST_KEYS = ('max_tokens', 'stop')\n"
    "app = Flask(__name__)\n"
    "\n"
    "\n"
    "@app.route('/infer', methods=['POST'])\n"
    "def infer():\n"
    "    datas = request.get_json()\n"
    "    params = datas['params']\n"
    "{update}"
    "    return llm.generate(datas['prompts'], SamplingParams(**params_dict))\n"
)
TOP_K_LINE = 7


def _app(update: str) -> dict[str, str]:
    return {"app.py": APP.replace("{update}", update)}


@pytest.mark.parametrize(
    "update",
    [
        "    for key, value in params.items():\n        if key in params_dict:\n            params_dict[key] = value\n",
        "    for key, value in params.items():\n        params_dict[key] = value\n",
        "    for key in params:\n        params_dict[key] = params[key]\n",
        "    for key, value in params.items():\n        if key in params_dict.keys():\n            params_dict[key] = value\n",
        "    params_dict.update(request.json['params'])\n",
    ],
    ids=["membership-of-itself", "every-key", "keys-indexed", "keys-call", "update"],
)
def test_a_request_that_may_overwrite_every_key_leaves_them_open(tmp_path: Path, update: str) -> None:
    assert check(tmp_path, _app(update)) == []


def test_a_merge_with_the_request_s_params_leaves_them_open(tmp_path: Path) -> None:
    text = APP.replace("{update}", "").replace("SamplingParams(**params_dict)", "SamplingParams(**{**params_dict, **params})")
    assert check(tmp_path, {"app.py": text}) == []


@pytest.mark.parametrize(
    "allowed",
    ["REQUEST_KEYS", "('max_tokens', 'stop')", "{'max_tokens', 'stop'}", "['max_tokens']"],
)
def test_a_request_allowed_only_some_keys_keeps_the_others(tmp_path: Path, allowed: str) -> None:
    update = f"    for key, value in params.items():\n        if key in {allowed}:\n            params_dict[key] = value\n"
    assert check(tmp_path, _app(update)) == [("app.py", TOP_K_LINE, "RPL102")]


def test_a_loop_over_pairs_spelt_out_overwrites_only_those(tmp_path: Path) -> None:
    update = "    for key, value in {'max_tokens': 32}.items():\n        params_dict[key] = value\n"
    assert check(tmp_path, _app(update)) == [("app.py", TOP_K_LINE, "RPL102")]


def test_another_endpoint_that_overwrites_the_dict_leaves_its_keys_open(tmp_path: Path) -> None:
    other = "\n\n@app.route('/config', methods=['POST'])\ndef configure():\n    params_dict.update(request.get_json())\n"
    assert check(tmp_path, {"app.py": APP.replace("{update}", "") + other}) == []


def test_another_endpoint_that_writes_another_key_keeps_top_k(tmp_path: Path) -> None:
    other = "\n\n@app.route('/config', methods=['POST'])\ndef configure():\n    params_dict['max_tokens'] = request.get_json()['n']\n"
    assert check(tmp_path, {"app.py": APP.replace("{update}", "") + other}) == [("app.py", TOP_K_LINE, "RPL102")]


def test_the_endpoint_s_own_write_before_the_request_decides(tmp_path: Path) -> None:
    update = "    params_dict['top_k'] = 0\n"
    assert check(tmp_path, _app(update)) == [("app.py", 18, "RPL102")]
    assert check(tmp_path, _app("    params_dict['top_k'] = 20\n")) == []


# -- a branch the tree's own values decide against -------------------------------------------------

YAML = "backend: hf\ntemperature: 0.0\n"
MATCH = (
    "import os\n"
    "\n"
    "import yaml\n"
    "\n"
    "HERE = os.path.dirname(os.path.abspath(__file__))\n"
    "\n"
    "\n"
    "def load_vllm(cfg):\n"
    "    from vllm import LLM\n"
    "\n"
    "    return LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "\n"
    "def generate(cfg, prompts):\n"
    "    match cfg['backend']:\n"
    "        case 'vllm':\n"
    "            from vllm import SamplingParams\n"
    "\n"
    "            llm = load_vllm(cfg)\n"
    "            return llm.generate(prompts, SamplingParams(temperature=cfg['temperature'], top_k=20))\n"
    "        case 'hf':\n"
    "            return None\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    with open(os.path.join(HERE, 'eval.yaml')) as f:\n"
    "        cfg = yaml.safe_load(f)\n"
    "    generate(cfg, ['x'])\n"
)


def test_the_case_a_match_arm_the_yaml_does_not_take(tmp_path: Path) -> None:
    assert check(tmp_path, {"eval.yaml": YAML, "math_eval.py": MATCH}) == []


def test_the_arm_the_yaml_takes_is_judged(tmp_path: Path) -> None:
    assert check(tmp_path, {"eval.yaml": YAML.replace("hf", "vllm"), "math_eval.py": MATCH}) == [("eval.yaml", 2, "RPL101")]


@pytest.mark.parametrize(
    "pattern",
    ["case 'vllm' | 'vllm-v1':", "case 'vllm' if True:"],
    ids=["or-pattern", "guarded-case-stays-open"],
)
def test_other_case_patterns(tmp_path: Path, pattern: str) -> None:
    found = check(tmp_path, {"eval.yaml": YAML, "math_eval.py": MATCH.replace("case 'vllm':", pattern)})
    assert found == ([] if "|" in pattern else [("eval.yaml", 2, "RPL101")])


@pytest.mark.parametrize(
    "test",
    ["if BACKEND == 'vllm':", "if BACKEND in ('vllm', 'vllm-v1'):", "if BACKEND != 'hf':"],
)
def test_an_if_on_a_module_constant_never_taken(tmp_path: Path, test: str) -> None:
    text = (
        "from vllm import LLM, SamplingParams\n\nBACKEND = 'hf'\n\n"
        f"{test}\n"
        "    llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "    llm.generate(['x'], SamplingParams(temperature=0.0, top_k=5))\n"
    )
    assert check(tmp_path, {"run.py": text}) == []


@pytest.mark.parametrize(
    ("setup", "subject"),
    [
        (
            "import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--backend', default='hf')\nargs = parser.parse_args()\n",
            "args.backend",
        ),
        ("import os\n", "os.environ.get('BACKEND', 'hf')"),
    ],
    ids=["option-default", "environment-default"],
)
def test_a_default_a_run_may_change_keeps_the_launch_on_its_path(tmp_path: Path, setup: str, subject: str) -> None:
    text = (
        f"{setup}from vllm import LLM, SamplingParams\n\n"
        f"match {subject}:\n"
        "    case 'vllm':\n"
        "        llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "        llm.generate(['x'], SamplingParams(temperature=0.0, top_k=5))\n"
    )
    lines = text.splitlines()
    row = next(n for n, line in enumerate(lines, 1) if "temperature=0.0" in line)
    assert check(tmp_path, {"run.py": text}) == [("run.py", row, "RPL101")]


def test_a_subject_the_reader_does_not_know_keeps_the_launch(tmp_path: Path) -> None:
    text = MATCH.replace("yaml.safe_load(f)", "yaml.safe_load(open(os.environ['CONFIG']))")
    text = text.replace("temperature=cfg['temperature']", "temperature=0.0")
    assert check(tmp_path, {"eval.yaml": YAML, "math_eval.py": text}) == [("math_eval.py", 20, "RPL101")]
