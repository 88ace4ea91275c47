"""What held-out round 30 taught the value flow about objects made in a loop's turns.

VLMEvalKit's run.py makes each model of `--model` (`nargs="+"`, a default list) from its
registry of `partial(Qwen2VLChat, ..., use_vllm=True)` entries in a loop, then asks it
(`model.generate_inner(...)`), whose vLLM branch sends a greedy request. The loop over the
option's default list is read turn by turn, each turn's name read as the default's item (it
rests on that default, as `supported_VLM[args.model]` does), and a method's request is read with
what each turn's construction gave `__init__`. A list from the run (`sys.argv`), an option with
no default, an entry that does not take the vLLM branch or makes another class stay silent.

LMCache's examples import vLLM through `lmcache_vllm.vllm` (`from lmcache_vllm.vllm import LLM,
SamplingParams`): lmcache_vllm's import hook serves `lmcache_vllm.vllm.X` as `vllm.X`, so those
are vLLM's own engine and params. Another package's `vllm` module is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MODEL = (
    "class Chat:\n"
    "    def __init__(self, model_path, max_new_tokens=64, **kwargs):\n"
    "        self.max_new_tokens = max_new_tokens\n"
    "        self.use_vllm = kwargs.get('use_vllm', False)\n"
    "        if self.use_vllm:\n"
    "            from vllm import LLM\n"
    "\n"
    "            self.llm = LLM(model_path, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "    def generate_vllm(self, message):\n"
    "        from vllm import SamplingParams\n"
    "\n"
    "        params = SamplingParams(temperature=0.0, top_k=20, max_tokens=self.max_new_tokens)\n"
    "        return self.llm.generate([message], sampling_params=params)\n"
    "\n"
    "    def generate(self, message):\n"
    "        if self.use_vllm:\n"
    "            return self.generate_vllm(message)\n"
    "        return message\n"
    "\n"
    "\n"
    "class Other:\n"
    "    def __init__(self, model_path, **kwargs):\n"
    "        self.model_path = model_path\n"
    "\n"
    "    def generate(self, message):\n"
    "        return message\n"
)
CONFIG = (
    "from functools import partial\n"
    "\n"
    "from model import Chat, Other\n"
    "\n"
    "SUPPORTED = {\n"
    "    'chat-hf': partial(Chat, model_path='m'),\n"
    "    'chat-vllm': partial(Chat, model_path='m', use_vllm=True),\n"
    "    'other': partial(Other, model_path='m', use_vllm=True),\n"
    "}\n"
)
REQUEST_LINE = 13
OPTION = (
    "import argparse\n"
    "\n"
    "from config import SUPPORTED\n"
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model', type=str, nargs='+'{default})\n"
    "    args = parser.parse_args()\n"
    "    for name in args.model:\n"
    "        model = SUPPORTED[name]()\n"
    "        for prompt in ['a', 'b']:\n"
    "            print(model.generate(prompt))\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def _run(loop: str) -> str:
    return (
        "from config import SUPPORTED\n\n\n"
        "def main():\n"
        f"    {loop}\n"
        "        model = SUPPORTED[name]()\n"
        "        print(model.generate('a'))\n\n\n"
        "if __name__ == '__main__':\n"
        "    main()\n"
    )


@pytest.mark.parametrize(
    "default",
    [", default=['chat-vllm']", ", default=['chat-hf', 'chat-vllm']", ", default=('chat-vllm',)"],
    ids=["one", "second-of-two", "tuple"],
)
def test_a_loop_over_an_option_s_default_list_sends_each_model_s_request(tmp_path: Path, default: str) -> None:
    files = {"model.py": MODEL, "config.py": CONFIG, "run.py": OPTION.replace("{default}", default)}
    assert check(tmp_path, files) == [("model.py", REQUEST_LINE, "RPL101")]


@pytest.mark.parametrize(
    "loop",
    ["for name in ['chat-vllm']:", "for name in ('chat-hf', 'chat-vllm'):"],
    ids=["list", "tuple"],
)
def test_a_loop_over_names_spelt_out_sends_each_model_s_request(tmp_path: Path, loop: str) -> None:
    assert check(tmp_path, {"model.py": MODEL, "config.py": CONFIG, "run.py": _run(loop)}) == [("model.py", REQUEST_LINE, "RPL101")]


@pytest.mark.parametrize(
    "default",
    [", default=['chat-hf']", ", default=['other']", ""],
    ids=["entry-without-vllm", "entry-of-another-class", "no-default"],
)
def test_a_default_that_takes_no_vllm_branch_sends_nothing(tmp_path: Path, default: str) -> None:
    files = {"model.py": MODEL, "config.py": CONFIG, "run.py": OPTION.replace("{default}", default)}
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    ("loop", "prelude"),
    [("for name in sys.argv[1:]:", "import sys\n"), ("for name in os.environ['MODELS'].split(','):", "import os\n")],
    ids=["argv", "environment"],
)
def test_names_from_the_run_send_nothing_known(tmp_path: Path, loop: str, prelude: str) -> None:
    assert check(tmp_path, {"model.py": MODEL, "config.py": CONFIG, "run.py": prelude + _run(loop)}) == []


# -- vLLM served through LMCache's import hook -----------------------------------------------------

LMCACHE = (
    "{imports}\n"
    "\n"
    "params = {params}(temperature=0.8, top_p=0.95, max_tokens=64)\n"
    "llm = {engine}(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "llm.generate(['a'], params)\n"
)


def _lmcache(imports: str, engine: str = "LLM", params: str = "SamplingParams", mode: str = "'processed_logprobs'") -> dict[str, str]:
    text = LMCACHE.format(imports=imports, engine=engine, params=params).replace("'processed_logprobs'", mode)
    return {"offline_inference.py": text}


@pytest.mark.parametrize(
    ("imports", "engine", "params"),
    [
        ("from lmcache_vllm.vllm import LLM, SamplingParams", "LLM", "SamplingParams"),
        ("from lmcache_vllm.vllm import LLM as Engine, SamplingParams as Params", "Engine", "Params"),
        ("import lmcache_vllm.vllm as vllm", "vllm.LLM", "vllm.SamplingParams"),
        ("from lmcache_vllm.vllm import LLM\nfrom lmcache_vllm.vllm.sampling_params import SamplingParams", "LLM", "SamplingParams"),
    ],
    ids=["names", "aliases", "module-alias", "submodule"],
)
def test_vllm_through_lmcache_s_hook_is_vllm(tmp_path: Path, imports: str, engine: str, params: str) -> None:
    shift = imports.count("\n")
    assert check(tmp_path, _lmcache(imports, engine, params)) == [("offline_inference.py", 3 + shift, "RPL102")]


def test_an_engine_through_lmcache_s_hook_is_judged(tmp_path: Path) -> None:
    files = _lmcache("from lmcache_vllm.vllm import LLM, SamplingParams", mode="'raw_logprobs'")
    assert ("offline_inference.py", 4, "RPL003") in check(tmp_path, files)


@pytest.mark.parametrize(
    "imports",
    ["from mypkg.vllm import LLM, SamplingParams", "from lmcache_vllm.engine import LLM, SamplingParams"],
    ids=["another-package-s-vllm", "another-lmcache-module"],
)
def test_another_package_s_engine_is_not_vllm(tmp_path: Path, imports: str) -> None:
    assert check(tmp_path, _lmcache(imports, mode="'raw_logprobs'")) == []
