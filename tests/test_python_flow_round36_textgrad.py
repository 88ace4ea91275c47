"""What held-out round 36 (zou-group/textgrad's `get_engine("vllm-...", **kwargs)`) made the value flow follow: a
module-level function that returns an engine class's object on the branch its arguments decide (`return
ChatVLLM(model_string=..., **kwargs)` where `"vllm" in engine_name`, `return ChatOpenAI(...)` elsewhere) makes an
object of that class, so the calls on the name bound to it (`engine(prompt)` through `__call__`,
`engine.generate(prompt)`) are read with their arguments, and a default of the method's (`temperature=0`) decides
the request. A call whose arguments leave another class possible, or pick another class, is not that object's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ENGINE = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class ChatVLLM:\n"
    "    def __init__(self, model_string='m', **kwargs):\n"
    "        self.model = LLM(model_string, **kwargs)\n"
    "\n"
    "    def __call__(self, prompt, **kwargs):\n"
    "        return self.generate(prompt, **kwargs)\n"
    "\n"
    "    def generate(self, prompt, system_prompt=None, temperature=0, max_tokens=2000, top_p=0.99):\n"
    "        params = SamplingParams(max_tokens=max_tokens, temperature=temperature, top_p=top_p, top_k=20)\n"
    "        return self.model.generate([prompt], sampling_params=params)[0].outputs[0].text\n"
)
DEFAULT_LINE = 11  # `def generate(..., temperature=0, ...)`

OPENAI = (
    "class ChatOpenAI:\n"
    "    def __init__(self, model_string='gpt-4o', **kwargs):\n"
    "        self.model_string = model_string\n"
    "\n"
    "    def __call__(self, prompt, **kwargs):\n"
    "        return self.generate(prompt, **kwargs)\n"
    "\n"
    "    def generate(self, prompt, temperature=0):\n"
    "        return prompt\n"
)


def factory(test: str = '"vllm" in engine_name') -> str:
    return (
        "def get_engine(engine_name, **kwargs):\n"
        '    if "gpt-4" in engine_name:\n'
        "        from .openai import ChatOpenAI\n"
        "        return ChatOpenAI(model_string=engine_name, **kwargs)\n"
        f"    elif {test}:\n"
        "        from .vllm import ChatVLLM\n"
        '        engine_name = engine_name.replace("vllm-", "")\n'
        "        return ChatVLLM(model_string=engine_name, **kwargs)\n"
        "    else:\n"
        '        raise ValueError(f"Engine {engine_name} not supported")\n'
    )


REPLAY = "return_sampling_mask=True, logprobs_mode='processed_logprobs'"


def tree(script: str, test: str = '"vllm" in engine_name') -> dict[str, str]:
    return {
        "tg/__init__.py": "",
        "tg/engine/__init__.py": factory(test),
        "tg/engine/vllm.py": ENGINE,
        "tg/engine/openai.py": OPENAI,
        "run.py": script,
    }


def script(call: str, name: str = '"vllm-Qwen/Qwen2.5-0.5B-Instruct"', imports: str = "from tg.engine import get_engine") -> str:
    return f"{imports}\n\nengine = get_engine({name}, {REPLAY})\n\nif __name__ == '__main__':\n    print({call})\n"


@pytest.mark.parametrize("call", ["engine('q')", "engine.generate('q')", "engine('q', max_tokens=64)"])
def test_a_call_on_the_object_a_factory_returns_takes_the_methods_default(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, tree(script(call))) == [("vllm.py", DEFAULT_LINE, "RPL101")]


@pytest.mark.parametrize("call", ["engine('q', temperature=0.7)", "engine.generate('q', temperature=0.7)"])
def test_a_sampled_call_on_that_object_stays_clean(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, tree(script(call))) == []


def test_a_branch_spelt_with_startswith_and_a_module_imported_under_a_name(tmp_path: Path) -> None:
    spelt = script("engine('q')", imports="from tg import engine as engines").replace("get_engine(", "engines.get_engine(")
    assert check(tmp_path, tree(spelt, test='engine_name.startswith("vllm-")')) == [("vllm.py", DEFAULT_LINE, "RPL101")]


def test_a_name_known_only_at_run_time_leaves_the_class_open(tmp_path: Path) -> None:
    # the OpenAI branch may be taken: which `generate` the call reaches is not known
    found = check(tmp_path, tree(script("engine('q')", name="sys.argv[1]", imports="import sys\nfrom tg.engine import get_engine")))
    assert ("vllm.py", DEFAULT_LINE, "RPL101") not in found


def test_an_object_the_factory_makes_of_another_class_is_not_the_engines(tmp_path: Path) -> None:
    # `judge` is a ChatOpenAI: its greedy default goes to OpenAI's API, not to the replay engine
    two = (
        "from tg.engine import get_engine\n"
        "\n"
        f"engine = get_engine('vllm-m', {REPLAY})\n"
        "judge = get_engine('gpt-4o')\n"
        "print(engine('q', temperature=0.7), judge('q'))\n"
    )
    assert check(tmp_path, tree(two)) == []


def test_the_engine_a_factory_imports_inside_its_branch_is_read_from_the_script(tmp_path: Path) -> None:
    # `from .vllm import ChatVLLM` inside `get_engine`: the script's keywords reach `LLM(model_string, **kwargs)` there
    mask_only = script("engine('q', temperature=0.7)").replace(", logprobs_mode='processed_logprobs'", "")
    assert check(tmp_path, tree(mask_only)) == [("run.py", 3, "RPL003")]


def test_a_name_from_a_run_time_default_keeps_the_class_open(tmp_path: Path) -> None:
    # `ENGINE` may be set where the script runs: the branch its default picks is not taken for the engine's
    imports = "import os\nfrom tg.engine import get_engine"
    found = check(tmp_path, tree(script("engine('q')", name='os.getenv("ENGINE", "vllm-m")', imports=imports)))
    assert ("vllm.py", DEFAULT_LINE, "RPL101") not in found
