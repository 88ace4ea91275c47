"""What held-out round 28 made the value flow follow in requests (two RPL102 misses).

TIGERScore's `score(self, insts, hypo_outputs, **generate_kwargs)` makes a `SamplingParams` with
`top_k=40`, then `for key, value in generate_kwargs.items(): if hasattr(sampling_params, key):
setattr(sampling_params, key, value)`: the caller's `top_k=-1` is what the request sends, found at
the caller's keyword. Kwargs no caller of the tree gives (or a run-time mapping) leave the request
open.

LongProc keeps its engine in a class attribute (`class _VLLMBackend: llm = None`, filled by
`_VLLMBackend.llm = LLM(...)` on first use): a request sent to `_VLLMBackend.llm` reaches that
engine (a request is never sent to the None it starts as). A second write of the attribute, or a
class body that binds it to something else, leaves the receiver unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SCORER = (
    "import vllm\n"
    "\n"
    "\n"
    "class TIGERScorer(object):\n"
    "    def __init__(self, model_name):\n"
    "        self.model = vllm.LLM(model_name, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "    def score(self, prompts, **generate_kwargs):\n"
    "        sampling_params = vllm.SamplingParams(max_tokens=1024, top_k=40, temperature=0.7)\n"
    "{loop}"
    "        return self.model.generate(prompts, sampling_params=sampling_params)\n"
    "\n"
    "\n"
    "{prelude}"
    "scorer = TIGERScorer('m')\n"
    "scorer.score(['x'], {kwargs})\n"
)
SETATTR = "        for key, value in generate_kwargs.items():\n            if hasattr(sampling_params, key):\n                setattr(sampling_params, key, value)\n"
CALL_LINE = 17


def _scorer(kwargs: str, loop: str = SETATTR, prelude: str = "") -> dict[str, str]:
    return {"tigerscore.py": SCORER.replace("{loop}", loop).replace("{prelude}", prelude).replace("{kwargs}", kwargs)}


@pytest.mark.parametrize(
    "loop",
    [
        SETATTR,
        "        for key, value in generate_kwargs.items():\n            setattr(sampling_params, key, value)\n",
        "        for k in generate_kwargs:\n            setattr(sampling_params, k, generate_kwargs[k])\n",
        "        for key, value in generate_kwargs.items():\n            if value is None:\n                continue\n"
        "            setattr(sampling_params, key, value)\n",
    ],
    ids=["hasattr-guard", "plain", "keys-indexed", "skip-none"],
)
def test_the_caller_s_kwargs_set_on_the_params_are_sent(tmp_path: Path, loop: str) -> None:
    found = check(tmp_path, _scorer("temperature=0.9, top_k=-1", loop))
    extra = loop.count("\n") - SETATTR.count("\n")
    assert found == [("tigerscore.py", CALL_LINE + extra, "RPL102")]


def test_a_greedy_caller_is_reported_at_its_temperature(tmp_path: Path) -> None:
    assert check(tmp_path, _scorer("temperature=0.0")) == [("tigerscore.py", CALL_LINE, "RPL101")]


@pytest.mark.parametrize("kwargs", ["top_k=20", "temperature=0.9", "max_tokens=16"])
def test_kwargs_that_keep_the_request_valid(tmp_path: Path, kwargs: str) -> None:
    assert check(tmp_path, _scorer(kwargs)) == []


def test_a_key_the_guard_lets_through_only(tmp_path: Path) -> None:
    loop = "        for key, value in generate_kwargs.items():\n            if key in ('max_tokens', 'n'):\n                setattr(sampling_params, key, value)\n"
    assert check(tmp_path, _scorer("top_k=-1, max_tokens=8", loop)) == []


@pytest.mark.parametrize(
    ("kwargs", "prelude"),
    [("**json.load(open(sys.argv[1]))", "import json\nimport sys\n\n"), ("top_k=int(sys.argv[1])", "import sys\n\n")],
    ids=["run-time-mapping", "run-time-value"],
)
def test_run_time_kwargs_leave_the_request_open(tmp_path: Path, kwargs: str, prelude: str) -> None:
    assert check(tmp_path, _scorer(kwargs, prelude=prelude)) == []


def test_no_caller_leaves_the_request_open(tmp_path: Path) -> None:
    text = SCORER.replace("{loop}", SETATTR).replace("{prelude}", "").split("scorer = ")[0]
    assert check(tmp_path, {"tigerscore.py": text}) == []


# -- an engine a class attribute caches ------------------------------------------------------------

BACKEND = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class _VLLMBackend:\n"
    "    llm = None\n"
    "\n"
    "\n"
    "def query(prompts, model_name, temperature):\n"
    "    if _VLLMBackend.llm is None:\n"
    "        _VLLMBackend.llm = LLM(model=model_name, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "{use}"
    "\n"
    "\n"
    "query([], 'm', 0.6)\n"
)
REQUEST = "SamplingParams(temperature=temperature, max_tokens=8)"


@pytest.mark.parametrize(
    "use",
    [
        f"    llm = _VLLMBackend.llm\n    return llm.chat(prompts, sampling_params={REQUEST})\n",
        f"    return _VLLMBackend.llm.generate(prompts, {REQUEST})\n",
        f"    params = {REQUEST}\n    return _VLLMBackend.llm.generate(prompts, sampling_params=params)\n",
    ],
    ids=["bound-to-a-name", "called-on-the-attribute", "params-named"],
)
def test_a_request_to_the_cached_engine_is_judged(tmp_path: Path, use: str) -> None:
    line = 11 if "params = " in use else 10 + use.count("\n")
    assert check(tmp_path, {"llm_utils.py": BACKEND.replace("{use}", use)}) == [("llm_utils.py", line, "RPL102")]


def test_a_request_with_top_k_to_the_cached_engine_is_clean(tmp_path: Path) -> None:
    use = f"    return _VLLMBackend.llm.generate(prompts, {REQUEST.replace(')', ', top_k=20)')})\n"
    assert check(tmp_path, {"llm_utils.py": BACKEND.replace("{use}", use)}) == []


def test_a_cache_filled_from_another_module_s_caller(tmp_path: Path) -> None:
    use = f"    llm = _VLLMBackend.llm\n    return llm.chat(prompts, sampling_params={REQUEST})\n"
    files = {
        "llm_utils.py": BACKEND.replace("{use}", use).replace("query([], 'm', 0.6)\n", ""),
        "run.py": "from llm_utils import query\n\nif __name__ == '__main__':\n    query([], 'm', temperature=0.6)\n",
    }
    assert check(tmp_path, files) == [("llm_utils.py", 12, "RPL102")]


@pytest.mark.parametrize(
    "change",
    [
        ("    llm = None\n", "    llm = HFBackend()\n"),  # the class body holds another object
        ("query([], 'm', 0.6)\n", "query([], 'm', 0.6)\n_VLLMBackend.llm = OtherClient()\n"),  # a second write
        ("class _VLLMBackend:\n", "class _VLLMBackend:\n    @classmethod\n    def use(cls, client):\n        cls.llm = client\n\n"),
    ],
    ids=["class-body-not-none", "second-write", "classmethod-write"],
)
def test_another_object_the_attribute_may_hold_leaves_the_receiver_unknown(tmp_path: Path, change: tuple[str, str]) -> None:
    use = f"    return _VLLMBackend.llm.generate(prompts, {REQUEST})\n"
    text = BACKEND.replace("{use}", use).replace(*change)
    assert check(tmp_path, {"llm_utils.py": text}) == []


def test_another_class_s_attribute_is_not_the_engine(tmp_path: Path) -> None:
    use = f"    return _Other.llm.generate(prompts, {REQUEST})\n"
    text = BACKEND.replace("{use}", use).replace("class _VLLMBackend:\n", "class _Other:\n    llm = None\n\n\nclass _VLLMBackend:\n")
    assert check(tmp_path, {"llm_utils.py": text}) == []
