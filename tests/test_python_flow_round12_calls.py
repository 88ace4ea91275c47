"""What held-out round 12 (tests/data/python_flow/h12_*) made the value flow follow through calls:
a request built from `**gen_kwargs` forwarded through two functions (in one module, or in a
module the engine is handed to by the module that builds or imports it), a class whose
`__init__` forwards `**kwargs` to the engine made in another module (a Ray actor's
`.options(...).remote(**kw)`), and the dicts spread into an OpenAI client's call
(`**sampling_args`, its `extra_body`). Each stop keeps the request or launch open (no finding
rests on an absent or unknown setting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# `SamplingParams(**gen_kwargs)` reached through two `**kwargs` forwarding functions

ROLLOUT = (
    "from vllm import SamplingParams\n"
    "\n"
    "\n"
    "def rollout(llm, conversations, **gen_kwargs):\n"
    "    params = SamplingParams(**gen_kwargs)\n"
    "    return llm.chat(conversations, sampling_params=params)\n"
    "\n"
    "\n"
    "def rollout_group(llm, conversations, group_size, **gen_kwargs):\n"
    "    return rollout(llm, conversations * group_size, **gen_kwargs)\n"
)
BUILDER = (
    "from vllm import LLM\n"
    "\n"
    "\n"
    "def build_llm(model, **overrides):\n"
    "    return LLM(model=model, return_sampling_mask=True, logprobs_mode='processed_logprobs', **overrides)\n"
)
REPLAY = "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')"


def test_two_forwarding_functions_of_one_module_reach_the_request(tmp_path: Path) -> None:
    source = (
        ROLLOUT.replace("SamplingParams\n", "LLM, SamplingParams\n", 1) + f"\nllm = {REPLAY}\nrollout_group(llm, [], 8, temperature=0.9)\n"
    )
    assert check(tmp_path, {"main.py": source}) == [("main.py", 5, "RPL102")]


@pytest.mark.parametrize(
    "call",
    [
        "rollout_group(llm, [], 8, temperature=0.9, top_p=0.95)",
        "rollout_group(llm=llm, conversations=[], group_size=8, temperature=0.9)",
        "rollout_group(llm, [], 8, **GEN)",
        "rollout(llm, [], temperature=0.9)",  # one hop, the module also calls it from `rollout_group`
    ],
)
def test_a_request_module_the_builder_s_importer_hands_the_engine_to(tmp_path: Path, call: str) -> None:
    main = f"from engine import build_llm\nfrom rollout import rollout, rollout_group\n\nGEN = dict(temperature=0.9)\nllm = build_llm('m')\n{call}\n"
    found = check(tmp_path, {"engine.py": BUILDER, "rollout.py": ROLLOUT, "main.py": main})
    assert found == [("rollout.py", 5, "RPL102")]


def test_a_request_module_called_through_its_package_attribute(tmp_path: Path) -> None:
    main = f"from agent import rollout\nfrom vllm import LLM\n\nllm = {REPLAY}\nrollout.rollout_group(llm, [], 8, temperature=1.0)\n"
    found = check(tmp_path, {"agent/__init__.py": "", "agent/rollout.py": ROLLOUT, "main.py": main})
    assert found == [("rollout.py", 5, "RPL102")]


def test_the_engine_built_where_the_request_module_is_called(tmp_path: Path) -> None:
    main = f"from vllm import LLM\nfrom rollout import rollout_group\n\nllm = {REPLAY}\nrollout_group(llm, [], 8, temperature=0.9)\n"
    assert check(tmp_path, {"rollout.py": ROLLOUT, "main.py": main}) == [("rollout.py", 5, "RPL102")]


@pytest.mark.parametrize(
    "given",
    [
        "temperature=0.9, top_k=40",  # the caller sets it
        "**json.load(open('gen.json'))",  # keys from a file: open
        "**GEN",  # a module constant written in a function: open
    ],
)
def test_a_forwarded_request_the_caller_completes_or_leaves_open_is_clean(tmp_path: Path, given: str) -> None:
    main = (
        "import json\nfrom engine import build_llm\nfrom rollout import rollout_group\n\nGEN = {}\n\n\n"
        "def load():\n    GEN['top_p'] = 0.9\n\n\n"
        f"llm = build_llm('m')\nrollout_group(llm, [], 8, {given})\n"
    )
    assert check(tmp_path, {"engine.py": BUILDER, "rollout.py": ROLLOUT, "main.py": main}) == []


def test_a_request_module_handed_another_engine_is_not_the_replay_engine_s(tmp_path: Path) -> None:
    main = (
        "from engine import build_llm\nfrom rollout import rollout_group\nfrom vllm import LLM\n\n"
        "policy = build_llm('m')\njudge = LLM('j')\nrollout_group(judge, [], 8, temperature=0.9)\n"
    )
    assert check(tmp_path, {"engine.py": BUILDER, "rollout.py": ROLLOUT, "main.py": main}) == []


# an actor whose `__init__(self, **kwargs)` builds the engine, made in another module

WORKER = (
    "import ray\n"
    "from vllm import LLM\n"
    "\n"
    "\n"
    "DECORATOR"
    "class RolloutActor:\n"
    "    def __init__(self, STAR**kwargs):\n"
    "        self.llm = LLM(ARGSreturn_sampling_mask=True, logprobs_mode='processed_logprobs', **kwargs)\n"
)
KWARGS = (
    "def base_kwargs(cfg):\n"
    "    return {'model': cfg['model'], 'enable_prefix_caching': True}\n"
    "\n"
    "\n"
    "def rollout_kwargs(cfg):\n"
    "    kwargs = base_kwargs(cfg)\n"
    "    kwargs[KEY] = VALUE\n"
    "    return kwargs\n"
)


def _actor_tree(construction: str, key: str = "'logits_processors'", value: str = "['pkg.Guard']", remote: bool = True) -> dict:
    worker = WORKER.replace("DECORATOR", "@ray.remote\n" if remote else "").replace("STAR", "").replace("ARGS", "")
    launch = f"from engine_kwargs import rollout_kwargs\nfrom worker import RolloutActor\n\nengine = {construction}\n"
    return {"worker.py": worker, "engine_kwargs.py": KWARGS.replace("KEY", key).replace("VALUE", value), "launch.py": launch}


@pytest.mark.parametrize(
    ("construction", "remote"),
    [
        ("RolloutActor.options(num_gpus=1, name='rollout-0').remote(**rollout_kwargs({'model': 'm'}))", True),
        ("RolloutActor.remote(**rollout_kwargs({'model': 'm'}))", True),
        ("RolloutActor(**rollout_kwargs({'model': 'm'}))", False),
    ],
)
def test_an_engine_s_forwarded_kwargs_are_read_at_a_construction_in_another_module(tmp_path: Path, construction: str, remote: bool) -> None:
    assert check(tmp_path, _actor_tree(construction, remote=remote)) == [("engine_kwargs.py", 7, "RPL001")]


def test_an_actor_that_also_forwards_positional_arguments(tmp_path: Path) -> None:
    files = _actor_tree("RolloutActor.remote('m', **rollout_kwargs({'model': 'm'}))")
    files["worker.py"] = WORKER.replace("DECORATOR", "@ray.remote\n").replace("STAR", "*args, ").replace("ARGS", "*args, ")
    files["engine_kwargs.py"] = files["engine_kwargs.py"].replace("{'model': cfg['model'], ", "{")
    assert check(tmp_path, files) == [("engine_kwargs.py", 7, "RPL001")]


@pytest.mark.parametrize(
    ("construction", "key", "value"),
    [
        ("RolloutActor.options(num_gpus=1).remote(**rollout_kwargs({'model': 'm'}))", "'enable_chunked_prefill'", "True"),
        ("RolloutActor.options(num_gpus=1).remote(**CFG)", "'logits_processors'", "['pkg.Guard']"),  # not known here: open
    ],
)
def test_an_actor_made_with_accepted_or_unknown_kwargs_is_clean(tmp_path: Path, construction: str, key: str, value: str) -> None:
    files = _actor_tree(construction, key, value)
    files["launch.py"] = "import json\n" + files["launch.py"].replace("\nengine =", "\nCFG = json.load(open('c.json'))\nengine =")
    assert check(tmp_path, files) == []


# dicts spread into an OpenAI client's call

SERVER = (
    "import subprocess\n"
    "\n"
    "\n"
    "def start():\n"
    "    return subprocess.Popen(['vllm', 'serve', 'm', '--port', '8000', '--return-sampling-mask', "
    "'--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
)
CLIENT = (
    "import json\n"
    "from openai import OpenAI\n"
    "from server import start\n"
    "\n"
    "\n"
    "def merge(sampling_args, temperature=None):\n"
    "    merged = dict(sampling_args or {})\n"
    "    if temperature is not None:\n"
    "        merged['temperature'] = temperature\n"
    "    return merged\n"
    "\n"
    "\n"
    "def main():\n"
    "    start()\n"
    "    client = OpenAI(base_url='http://localhost:8000/v1', api_key='EMPTY')\n"
    "    args = ARGS\n"
    "    client.completions.create(model='m', prompt='p', **args)\n"
)


@pytest.mark.parametrize(
    "args",
    [
        "{'extra_body': {'top_k': TOP_K}, 'temperature': 1.0}",
        "dict(extra_body={'top_k': TOP_K})",
        "merge({'extra_body': {'top_k': TOP_K}}, temperature=1.0)",  # copied (`dict(x or {})`), a key set in a branch decided
        "{**{'max_tokens': 8}, 'extra_body': {'top_k': TOP_K, 'skip_special_tokens': False}}",
    ],
)
def test_top_k_in_the_extra_body_of_a_spread_dict_is_read(tmp_path: Path, args: str) -> None:
    files = {"server.py": SERVER, "client.py": CLIENT.replace("ARGS", args.replace("TOP_K", "0"))}
    assert check(tmp_path, files) == [("client.py", 16, "RPL102"), ("client.py", 17, "RPL301")]
    files["client.py"] = CLIENT.replace("ARGS", args.replace("TOP_K", "20"))
    assert [code for _, _, code in check(tmp_path, files)] == ["RPL301"]  # the completions route has no mask field


def test_a_greedy_temperature_in_a_spread_dict_is_read(tmp_path: Path) -> None:
    files = {"server.py": SERVER, "client.py": CLIENT.replace("ARGS", "{'temperature': 0.0, 'extra_body': {'top_k': 20}}")}
    assert check(tmp_path, files) == [("client.py", 16, "RPL101"), ("client.py", 17, "RPL301")]


@pytest.mark.parametrize(
    "args",
    [
        "json.load(open('sampling.json'))",  # not known here
        "merge({'extra_body': {'top_k': 20}}, temperature=0.0 if json.loads(input()) else None)",  # greedy on a run-time branch
    ],
)
def test_a_spread_dict_not_known_here_finds_nothing(tmp_path: Path, args: str) -> None:
    files = {"server.py": SERVER, "client.py": CLIENT.replace("ARGS", args)}
    assert [code for _, _, code in check(tmp_path, files)] == ["RPL301"]
