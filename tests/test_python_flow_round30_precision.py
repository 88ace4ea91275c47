"""Held-out round 30's VLMEvalKit case whose expectation changed (clean -> RPL003), and why.

`run.py`'s `--model` defaults to the registry entry without `use_vllm`, so a run with the defaults
builds no vLLM engine; but `--model Qwen2.5-VL-7B-Instruct-vLLM` builds `LLM(...,
return_sampling_mask=True)` without logprobs_mode, which vLLM 0.34.0 refuses. The project keeps an
engine's findings on a path an option's default does not take, saying on which
(`branch_conditions.untaken`, round 41's precision tests, round 28's "an option's default keeps
the launch on its path"): a run may change the default. What the default's path sends is read
with the default (its greedy request is not reported), and a path no value of the run can open
stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run
from tests.test_python_flow_round30_engines import CONFIG, OPTION

MODEL = (
    "class Chat:\n"
    "    def __init__(self, model_path, **kwargs):\n"
    "        self.use_vllm = kwargs.get('use_vllm', False)\n"
    "        if self.use_vllm:\n"
    "            from vllm import LLM\n"
    "\n"
    "            self.llm = LLM(model_path, return_sampling_mask=True)\n"
    "\n"
    "    def generate(self, message):\n"
    "        from vllm import SamplingParams\n"
    "\n"
    "        if self.use_vllm:\n"
    "            return self.llm.generate([message], SamplingParams(temperature=0.0, top_k=20))\n"
    "        return message\n"
    "\n"
    "\n"
    "class Other:\n"
    "    def __init__(self, model_path, **kwargs):\n"
    "        self.model_path = model_path\n"
)
ENGINE_LINE, REQUEST_LINE = 7, 13


def _files(default: str) -> dict[str, str]:
    return {"model.py": MODEL, "config.py": CONFIG, "run.py": OPTION.replace("{default}", default)}


@pytest.mark.parametrize("default", [", default=['chat-hf']", ", default=['other']"], ids=["entry-without-vllm", "another-class"])
def test_an_engine_an_option_s_default_does_not_build_keeps_its_finding_and_says_when(tmp_path: Path, default: str) -> None:
    assert check(tmp_path, _files(default)) == [("model.py", ENGINE_LINE, "RPL003")]
    (found,) = run(tmp_path)
    assert "(when `self.use_vllm` is true)" in found["message"]


def test_the_default_s_entry_that_builds_the_engine_sends_its_request(tmp_path: Path) -> None:
    found = check(tmp_path, _files(", default=['chat-vllm']"))
    assert found == [("model.py", ENGINE_LINE, "RPL003"), ("model.py", REQUEST_LINE, "RPL101")]
