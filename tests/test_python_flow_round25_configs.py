"""What held-out rounds 24 and 25 (tests/data/python_flow/h24_*, h25_*) made the value flow follow
in configs and the objects that carry them.

An object called as a function (Archon's `self.generator(..., top_k=self.top_k)`, `self.generator`
a `vllmWrapper` on one branch of three) is a call of its class's `__call__`: a key that call passes
reaches the method's `**kwargs`, so `kwargs.get("top_k", -1)` there is no longer judged as written
(it was an RPL102 "when the caller passes no `top_k`" on a request vLLM accepts with top_k 40). A
call that passes other keywords only, or a function of the tree called with the key, leaves the
method judged as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

WRAPPER = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class Wrapper:\n"
    "    def __init__(self, model_name, **engine_kwargs):\n"
    "        self.model = LLM(model=model_name, **engine_kwargs)\n"
    "\n"
    "    def __call__(self, model_name, prompt, temperature, **kwargs):\n"
    "        params = SamplingParams(\n"
    "            temperature=temperature,\n"
    "            top_k=kwargs.get('top_k', -1),\n"  # line 11
    "        )\n"
    "        return self.model.generate([prompt], params)\n"
)
OWNER = (
    "from wrapper import Wrapper\n"
    "\n"
    "REPLAY = {{'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}}\n"
    "\n"
    "\n"
    "def other(prompt, **kwargs):\n"
    "    return prompt\n"
    "\n"
    "\n"
    "class Generator:\n"
    "    def __init__(self, config):\n"
    "        self.top_k = config.get('top_k', 20)\n"
    "        if config['model_type'] == 'vLLM':\n"
    "            self.generator = Wrapper(config['model'], **REPLAY)\n"
    "        else:\n"
    "            self.generator = config['custom']\n"
    "\n"
    "    def ask(self, prompt):\n"
    "        return {call}\n"
    "\n"
    "\n"
    "Generator({{'model': 'm', 'model_type': 'vLLM', 'top_k': 40}}).ask('p')\n"
)


def _files(call: str) -> dict[str, str]:
    return {"wrapper.py": WRAPPER, "generator.py": OWNER.format(call=call)}


@pytest.mark.parametrize(
    "call",
    [
        "self.generator(model_name='m', prompt=prompt, temperature=0.7, top_k=self.top_k)",
        "self.generator('m', prompt, 0.7, top_k=40)",
        "self.generator('m', prompt, 0.7, **{'top_k': self.top_k})",
    ],
)
def test_an_object_called_with_the_key_passes_it_to_its_call_method(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, _files(call)) == []


def test_an_object_bound_to_a_name_and_called_with_the_key(tmp_path: Path) -> None:
    owner = (
        "from wrapper import Wrapper\n"
        "\n"
        "wrapper = Wrapper('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "wrapper('m', 'p', 0.7, top_k=40)\n"
    )
    assert check(tmp_path, {"wrapper.py": WRAPPER, "run.py": owner}) == []


def test_an_object_called_without_the_key_is_judged_as_written(tmp_path: Path) -> None:
    files = _files("self.generator(model='m', prompt=prompt, temperature=0.7)")
    assert check(tmp_path, files) == [("wrapper.py", 11, "RPL102")]


def test_a_function_of_the_tree_called_with_the_key_is_not_the_object(tmp_path: Path) -> None:
    files = _files("[other(prompt, top_k=40), self.generator('m', prompt, 0.7)]")
    assert check(tmp_path, files) == [("wrapper.py", 11, "RPL102")]
