"""What held-out round 22 (tests/data/python_flow/h22_*) made the value flow follow:
an ordered comparison of known numbers as a branch's test (Goedel-Prover-V2's `if args.node > 1:`
with `--node`'s argparse default 1 choosing the single-node `LLM`); a loop over a parameter
rebound under a test the call decides (LIMR's `if not dev_sets: dev_sets = [...]` with the caller's
`args.dev_sets` at its default None), read turn by turn; `config.get(k)` of a loop's key (verl's
`for k in config.keys(): if hasattr(SamplingParams(), str(k)): kwargs[k] = config.get(k)`, as
Skywork-OR1's fork ships it); and a `json.dumps(DICT)` word of a command string split by
`shlex.split` (or a shell), each key placed where the dict writes it (Kimina-Prover's
`--override-generation-config '{json.dumps(GENERATION_DEFAULTS)}'`). Each stays silent where the
value is not the program's, or the branch or turn is not taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MASK = "return_sampling_mask=True, logprobs_mode='processed_logprobs'"

# Goedel-Prover-V2: the engine chosen by an ordered comparison of an argparse default

NODES = (
    "import argparse\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--node', default={default}, type=int)\n"
    "parser.add_argument('--temp', default=0.0, type=float)\n"  # line 7
    "args = parser.parse_args()\n"
    "if {test}:\n"
    "    model = LLM(model='m', pipeline_parallel_size=args.node, {many})\n"
    "else:\n"
    "    model = LLM(model='m', {one})\n"
    "model.generate(['p'], SamplingParams(temperature=args.temp, top_k=20))\n"
)
TESTS = ["args.node > 1", "args.node >= 2", "1 < args.node", "args.node <= 1.5"]


def _nodes(test: str, default: str = "1", many: str = MASK, one: str = MASK) -> dict[str, str]:
    return {"inference.py": NODES.format(test=test, default=default, many=many, one=one)}


@pytest.mark.parametrize("test", TESTS)
def test_an_ordered_comparison_of_a_default_chooses_the_engine(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, _nodes(test)) == [("inference.py", 7, "RPL101")]


def test_the_branch_the_default_does_not_take_is_not_judged(tmp_path: Path) -> None:
    """`--node` 1: the multi-node engine (the only one with replay here) is not built."""
    assert check(tmp_path, _nodes("args.node > 1", one="logprobs_mode='processed_logprobs'")) == []


def test_the_branch_the_default_takes_is_judged(tmp_path: Path) -> None:
    assert check(tmp_path, _nodes("args.node > 1", default="2", one="logprobs_mode='processed_logprobs'")) == [
        ("inference.py", 7, "RPL101")
    ]


def test_a_number_from_the_run_leaves_the_choice_open(tmp_path: Path) -> None:
    files = _nodes("int(sys.argv[1]) > 1", one="logprobs_mode='processed_logprobs'")
    files["inference.py"] = "import sys\n" + files["inference.py"]
    assert check(tmp_path, files) == []


def test_an_option_without_a_default_leaves_the_choice_open(tmp_path: Path) -> None:
    """argparse's None is no number: `None > 1` is not Python's to decide (it raises)."""
    assert check(tmp_path, _nodes("args.node > 1", default="None", one="logprobs_mode='processed_logprobs'")) == []


# LIMR: the dev sets a parameter falls back to, read turn by turn

DEV_SETS = (
    "import argparse\n"
    "import sys\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "CONFIG = {{\n"
    "    'aime24': {{'n': 8, 'temperature': 0.6}},\n"
    "    'math500': {{'n': 1, 'temperature': 0.0}},\n"  # line 8
    "}}\n"
    "\n"
    "\n"
    "def eval_ckpt(path, dev_sets{default}):\n"
    "    {fallback}\n"
    f"    llm = LLM(model=path, {MASK})\n"
    "    for dev_set in dev_sets:\n"
    "        n, temperature = CONFIG[dev_set]['n'], CONFIG[dev_set]['temperature']\n"
    "        llm.generate(['q'], SamplingParams(n=n, temperature=temperature, top_k=20))\n"
    "\n"
    "\n"
    "{call}\n"
)
MAIN = (
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--dev_sets', type=list, default=None)\n"
    "    args = parser.parse_args()\n"
    "    eval_ckpt('m', args.dev_sets)"
)
FALLBACKS = [
    ("", "if not dev_sets:\n        dev_sets = ['aime24', 'math500']", MAIN),  # LIMR's
    ("=None", "if dev_sets is None:\n        dev_sets = ['aime24', 'math500']", "eval_ckpt('m')"),
    ("", "if not dev_sets:\n        dev_sets = ('aime24', 'math500')", "eval_ckpt('m', [])"),
]


def _dev_sets(default: str, fallback: str, call: str) -> dict[str, str]:
    return {"eval.py": DEV_SETS.format(default=default, fallback=fallback, call=call)}


@pytest.mark.parametrize(("default", "fallback", "call"), FALLBACKS)
def test_a_loop_over_the_list_a_parameter_falls_back_to_reads_each_turn(tmp_path: Path, default: str, fallback: str, call: str) -> None:
    assert check(tmp_path, _dev_sets(default, fallback, call)) == [("eval.py", 8, "RPL101")]


@pytest.mark.parametrize(
    "call",
    [
        "eval_ckpt('m', sys.argv[2:])",  # the sets the run names
        "eval_ckpt('m', ['aime24'])",  # the caller's sets: not the fallback
        "",  # no caller in the tree
    ],
)
def test_sets_not_known_to_be_the_fallback_stay_silent(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, _dev_sets("", FALLBACKS[0][1], call)) == []


# Skywork-OR1 (verl's main_generation): every config key SamplingParams has, copied by `config.get(k)`

COPIED = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "CONFIG = {{\n"
    "    'temperature': 0.6,\n"
    "    'top_k': {top_k},\n"  # line 5
    "    'response_length': 1024,\n"
    "}}\n"
    "\n"
    f"llm = LLM(model='m', {MASK})\n"
    "kwargs = dict(n=1, max_tokens=CONFIG['response_length'])\n"
    "{loop}\n"
    "llm.generate(['q'], SamplingParams(**kwargs))\n"
)
LOOPS = [
    "for k in CONFIG.keys():\n    if hasattr(SamplingParams(), str(k)):\n        kwargs[k] = CONFIG.get(k)",  # verl's
    "for key in CONFIG:\n    if hasattr(SamplingParams, key):\n        kwargs[key] = CONFIG.get(key, None)",
    "for name in CONFIG.keys():\n    if name in ('temperature', 'top_k', 'top_p'):\n        kwargs[name] = CONFIG.get(name)",
]


@pytest.mark.parametrize("loop", LOOPS)
def test_config_get_of_the_loops_key_copies_the_value(tmp_path: Path, loop: str) -> None:
    assert check(tmp_path, {"gen.py": COPIED.format(top_k="-1", loop=loop)}) == [("gen.py", 5, "RPL102")]


@pytest.mark.parametrize("loop", LOOPS)
def test_a_bounded_top_k_copied_is_clean(tmp_path: Path, loop: str) -> None:
    assert check(tmp_path, {"gen.py": COPIED.format(top_k="20", loop=loop)}) == []


def test_a_config_the_run_loads_leaves_the_copy_open(tmp_path: Path) -> None:
    written = "CONFIG = {\n    'temperature': 0.6,\n    'top_k': -1,\n    'response_length': 1024,\n}\n"
    text = COPIED.format(top_k="-1", loop=LOOPS[0]).replace(written, "CONFIG = json.load(open(sys.argv[1]))\n")
    assert "json.load" in text
    assert check(tmp_path, {"gen.py": "import json\nimport sys\n" + text}) == []


def test_a_key_from_a_default_of_the_run_is_not_decided_by_get(tmp_path: Path) -> None:
    """`CONFIG.get(args.key, 20)`: which key the run names is the run's; the lookup stays open."""
    text = (
        "import argparse\n"
        "from vllm import LLM, SamplingParams\n"
        "\n"
        "CONFIG = {'top_k': -1, 'top_p': 0.9}\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--key', default='top_k')\n"
        "args = parser.parse_args()\n"
        f"llm = LLM(model='m', {MASK})\n"
        "llm.generate(['q'], SamplingParams(temperature=0.6, top_k=CONFIG.get(args.key, 20)))\n"
    )
    assert check(tmp_path, {"gen.py": text}) == []


# Kimina-Prover: the generation defaults a command string hands the server as `json.dumps(DICT)`

SERVE = (
    "import json\n"
    "import shlex\n"
    "import subprocess\n"
    "\n"
    "DEFAULTS = {{\n"
    "    'temperature': 0.8,\n"
    "    'top_k': 20,\n"
    "    {penalty}\n"  # line 8
    "}}\n"
    "\n"
    "\n"
    "def serve(port=8090):\n"
    "    command = f'vllm serve m --port {{port}} --return-sampling-mask --logprobs-mode processed_logprobs'\n"
    "    {grown}\n"
    "    return subprocess.Popen({run})\n"
    "\n"
    "\n"
    "serve()\n"
)
GROWN = [
    ("command += f\" --enable-scale-out --override-generation-config '{json.dumps(DEFAULTS)}'\"", "shlex.split(command)"),  # Kimina's
    ("command += f\" --enable-scale-out --override-generation-config '{json.dumps(DEFAULTS)}'\"", "command, shell=True"),
    ('command += " --enable-scale-out --override-generation-config \'" + json.dumps(DEFAULTS) + "\'"', "shlex.split(command)"),
    (
        "command += f\" --enable-scale-out --override-generation-config '{json.dumps(DEFAULTS)}' --served-model-name prover\"",
        "shlex.split(command)",
    ),
]


def _serve(grown: str, run: str, penalty: str = "'presence_penalty': 0.2,") -> dict[str, str]:
    return {"serve.py": SERVE.format(penalty=penalty, grown=grown, run=run)}


@pytest.mark.parametrize(("grown", "run"), GROWN)
def test_a_dumped_dict_in_a_split_command_string_is_placed_at_its_key(tmp_path: Path, grown: str, run: str) -> None:
    assert check(tmp_path, _serve(grown, run)) == [("serve.py", 8, "RPL302")]


@pytest.mark.parametrize(("grown", "run"), GROWN)
def test_defaults_without_a_penalty_are_clean(tmp_path: Path, grown: str, run: str) -> None:
    assert check(tmp_path, _serve(grown, run, penalty="")) == []


def test_a_dumped_dict_joined_to_other_text_is_placed_at_the_word(tmp_path: Path) -> None:
    """`--override-generation-config='{...}'`: the word is not the dict's text alone, so it is the place."""
    grown = "command += f\" --enable-scale-out --override-generation-config='{json.dumps(DEFAULTS)}'\""
    assert check(tmp_path, _serve(grown, "shlex.split(command)")) == [("serve.py", 14, "RPL302")]


def test_defaults_the_run_loads_are_not_judged(tmp_path: Path) -> None:
    text = _serve(*GROWN[0])["serve.py"]
    written = "DEFAULTS = {\n    'temperature': 0.8,\n    'top_k': 20,\n    'presence_penalty': 0.2,\n}\n"
    assert written in text
    assert check(tmp_path, {"serve.py": "import sys\n" + text.replace(written, "DEFAULTS = json.load(open(sys.argv[1]))\n")}) == []
