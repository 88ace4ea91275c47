"""What held-out round 27 (tests/data/python_flow/h27_llavauhd_qwen2vl_partial_registry_greedy) made the
value flow follow: objects of a class of the tree made through a `functools.partial` of it.

VLMEvalKit keeps its models as `supported_VLM = {name: partial(Qwen2VLChat, model_path=..., use_vllm=True)}`
(filled from series dicts by `update`) in config.py, and run.py, which imports only config.py, makes one
with `supported_VLM[name]()`. The class's `__init__` builds the engine from its `**kwargs`, so the engine
is the one each such call makes: the partial's arguments, then the call's own, as `partial` does
(`make(return_sampling_mask=False)` overrides the partial's). A call that adds keywords from run time
keeps them open there, a key not known picks no entry of a registry whose entries make different
classes, and a partial of another class (or the class's entry with the engine off) makes no engine.

The same holds for a partial of a function: `greedy = partial(ask, temperature=0.0)` called with
`**json.load(...)` may have its temperature replaced (the flow had reported RPL101 there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MODEL = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class Chat:\n"
    "    def __init__(self, model_path, max_new_tokens=64, **kwargs):\n"
    "        self.use_vllm = kwargs.get('use_vllm', False)\n"
    "        if self.use_vllm:\n"
    "            self.llm = LLM(\n"
    "                model=model_path,\n"
    "                return_sampling_mask=kwargs.get('return_sampling_mask', False),\n"
    "                logprobs_mode=kwargs.get('logprobs_mode', 'raw_logprobs'),\n"
    "            )\n"
    "\n"
    "    def generate_inner_vllm(self, message):\n"
    "        params = SamplingParams(temperature=0.0, max_tokens=16, top_k=1)\n"  # line 15
    "        return self.llm.generate([message], sampling_params=params)\n"
    "\n"
    "    def generate(self, message):\n"
    "        if self.use_vllm:\n"
    "            return self.generate_inner_vllm(message)\n"
    "        return message\n"
)
GREEDY = [("model.py", 15, "RPL101")]
REPLAY = "use_vllm=True, return_sampling_mask=True, logprobs_mode='processed_logprobs'"

REGISTRY = (
    "from functools import partial\n"
    "\n"
    "from model import Chat\n"
    "\n"
    "series = {{\n"
    "    'chat-replay': partial(Chat, model_path='m', {entry}),\n"
    "}}\n"
    "\n"
    "supported = {{}}\n"
    "supported.update(series)\n"
)


def _two_hops(tmp_path: Path, entry: str, run: str) -> list[tuple[str, int, str]]:
    files = {"model.py": MODEL, "config.py": REGISTRY.format(entry=entry), "run.py": "from config import supported\n\n" + run}
    return check(tmp_path, files)


@pytest.mark.parametrize(
    "run",
    [
        "model = supported['chat-replay']()\nmodel.generate('Describe the picture.')\n",  # the case's spelling
        "if __name__ == '__main__':\n    model = supported['chat-replay']()\n    print(model.generate('hi'))\n",
        "def main(name='chat-replay'):\n    model = supported[name]()\n    return model.generate('hi')\n\n\nmain()\n",
        "make = supported['chat-replay']\nmodel = make()\nmodel.generate('hi')\n",
    ],
)
def test_a_registry_of_partials_two_modules_from_the_class_makes_its_engine(tmp_path: Path, run: str) -> None:
    assert _two_hops(tmp_path, REPLAY, run) == GREEDY


def test_the_registrys_entry_with_the_engine_off_makes_no_engine(tmp_path: Path) -> None:
    run = "model = supported['chat-replay']()\nmodel.generate('hi')\n"
    assert _two_hops(tmp_path, "use_vllm=False, return_sampling_mask=True, logprobs_mode='processed_logprobs'", run) == []


@pytest.mark.parametrize(
    "entry",
    [
        "use_vllm=True, logprobs_mode='processed_logprobs'",  # the mask only the run-time keywords may give
        REPLAY,  # `partial` lets the call's keywords replace its own: the mask may be turned off
    ],
)
def test_keywords_the_call_adds_from_run_time_stay_open(tmp_path: Path, entry: str) -> None:
    run = "import json\nimport sys\n\nmodel = supported['chat-replay'](**json.load(open(sys.argv[1])))\nmodel.generate('hi')\n"
    assert _two_hops(tmp_path, entry, run) == []


def test_keywords_the_call_adds_from_the_tree_are_read(tmp_path: Path) -> None:
    run = "EXTRA = {'max_new_tokens': 32}\nmodel = supported['chat-replay'](**EXTRA)\nmodel.generate('hi')\n"
    assert _two_hops(tmp_path, REPLAY, run) == GREEDY


SAME_MODULE = {
    # `make = partial(Chat, ...)` then `make()`, under `__main__`
    "named": "from functools import partial\n\nif __name__ == '__main__':\n    make = partial(Chat, 'm', {kw})\n    make({call}).generate('hi')\n",
    # `functools.partial` in a registry of the class's module, a key spelt out
    "registry": "import functools\n\nMODELS = {{'chat': functools.partial(Chat, model_path='m', {kw})}}\n\nMODELS['chat']({call}).generate('hi')\n",
}


@pytest.mark.parametrize("form", sorted(SAME_MODULE))
def test_a_partial_of_the_class_in_its_own_module_makes_its_engine(tmp_path: Path, form: str) -> None:
    text = MODEL + "\n\n" + SAME_MODULE[form].format(kw=REPLAY, call="")
    assert check(tmp_path, {"model.py": text}) == GREEDY


@pytest.mark.parametrize(
    ("kw", "call", "expected"),
    [
        ("use_vllm=True, logprobs_mode='processed_logprobs'", "return_sampling_mask=True", GREEDY),  # the call adds the mask
        (REPLAY, "return_sampling_mask=False", []),  # the call's own keyword overrides the partial's
        (REPLAY, "use_vllm=False", []),
    ],
)
def test_the_calls_keywords_come_after_the_partials(tmp_path: Path, kw: str, call: str, expected: list) -> None:
    text = MODEL + "\n\n" + SAME_MODULE["named"].format(kw=kw, call=call)
    assert check(tmp_path, {"model.py": text}) == expected


def test_a_partial_made_in_the_module_that_uses_it(tmp_path: Path) -> None:
    run = f"from functools import partial\n\nfrom model import Chat\n\nmake = partial(Chat, 'm', {REPLAY})\nmodel = make()\nmodel.generate('hi')\n"
    assert check(tmp_path, {"model.py": MODEL, "run.py": run}) == GREEDY


OTHER = "class Plain:\n    def __init__(self, model_path, **kwargs):\n        self.model_path = model_path\n\n    def generate(self, message):\n        return message\n"
MIXED = (
    "import sys\n"
    "from functools import partial\n"
    "\n"
    "from model import Chat, Plain\n"
    "\n"
    f"MODELS = {{'plain': partial(Plain, 'p'), 'chat': partial(Chat, 'm', {REPLAY})}}\n"
    "\n"
    "model = MODELS[{key}]()\n"
    "model.generate('hi')\n"
)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("'chat'", GREEDY),
        ("'plain'", []),  # the key picks a partial of another class
        ("sys.argv[1]", []),  # a key from run time: the registry's entries make different classes
    ],
)
def test_a_registry_entry_makes_the_class_its_key_picks(tmp_path: Path, key: str, expected: list) -> None:
    files = {"model.py": MODEL + "\n\n" + OTHER, "run.py": MIXED.replace("{key}", key)}
    assert check(tmp_path, files) == expected


HEADER = "import json\nimport sys\nfrom functools import partial\n\nfrom vllm import LLM, SamplingParams\n\n\n"
HELPER = HEADER + (
    "def ask(llm, prompts, **kw):\n"
    "    return llm.generate(prompts, SamplingParams(**kw))\n"
    "\n"
    "\n"
    "greedy = partial(ask, temperature=0.0, top_k=1)\n"  # line 12
    "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "greedy(llm, ['p'], {more})\n"
)


@pytest.mark.parametrize(
    ("more", "expected"),
    [
        ("max_tokens=8", [("run.py", 12, "RPL101")]),
        ("**{'max_tokens': 8}", [("run.py", 12, "RPL101")]),
        ("**json.load(open(sys.argv[1]))", []),  # may replace the partial's temperature (was a false RPL101)
    ],
)
def test_a_function_partials_keywords_a_run_time_spread_may_replace(tmp_path: Path, more: str, expected: list) -> None:
    assert check(tmp_path, {"run.py": HELPER.replace("{more}", more)}) == expected


STARTED = HEADER + (
    "class Engine:\n"
    "    def __init__(self, model):\n"
    "        self.model = model\n"
    "\n"
    "    def start(self, **kw):\n"
    "        self.llm = LLM(self.model, **kw)\n"
    "        return self.llm\n"
    "\n"
    "\n"
    "{made}\n"
    "llm = engine.start(return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "llm.generate(['p'], SamplingParams(temperature=0.0, top_k=1))\n"  # line 19
)


@pytest.mark.parametrize(
    "made",
    [
        "make = partial(Engine, 'm')\nengine = make()",
        "import functools\nmake = functools.partial(Engine, model='m')\nengine = make()",
        "engine = Engine('m')",  # the class itself, as before
    ],
)
def test_a_method_of_an_object_made_through_a_partial_builds_the_engine(tmp_path: Path, made: str) -> None:
    line = 19 + made.count("\n")
    assert check(tmp_path, {"run.py": STARTED.replace("{made}", made)}) == [("run.py", line, "RPL101")]
