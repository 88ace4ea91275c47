"""What held-out round 45's olmo-eval cases (tests/data/python_flow/h45_olmo_eval_*) taught: a
method of an engine's class that no call in the tree reaches (the backend's greedy `logprobs`) is
not judged against the engine the tree builds when the tree keeps the object to itself and only
calls its other methods (still judged once something calls it, or the object is handed on); and a
request grown key by key under tests of the library's own params (`if params.stop_sequences:` of
the dataclass's `()`) is complete when every test is decided, so a `top_k` it leaves out is 0."""

from __future__ import annotations

from pathlib import Path

from tests.test_python_flow_round10 import check

CORE = """from dataclasses import dataclass


@dataclass
class SamplingParams:
    max_tokens: int = 256
    temperature: float = 0.0
    top_p: float | None = None
    top_k: int | None = None
    stop_sequences: tuple[str, ...] = ()
"""
BACKEND = """from typing import Any

from olmo_eval.core import SamplingParams


class VLLMBackend:
    def __init__(self, model_name: str, **engine_kwargs) -> None:
        from vllm import LLM

        engine_kwargs.setdefault("gpu_memory_utilization", 0.7)
        self.llm = LLM(model=model_name, **engine_kwargs)

    def _build_sampling_params(self, params: SamplingParams) -> Any:
        from vllm import SamplingParams as VLLMSamplingParams

        kwargs: dict[str, Any] = {"max_tokens": params.max_tokens}
        if params.temperature > 0:
            kwargs["temperature"] = params.temperature
        if params.top_p is not None:
            kwargs["top_p"] = params.top_p
        if params.top_k is not None:
            kwargs["top_k"] = params.top_k
        if params.stop_sequences:
            kwargs["stop"] = list(params.stop_sequences)
        return VLLMSamplingParams(**kwargs)

    def generate(self, prompts: list[str], sampling_params: SamplingParams | None = None):
        params = sampling_params or SamplingParams()
        vllm_params = self._build_sampling_params(params)
        return self.llm.generate(prompts, vllm_params)

    def logprobs(self, prompts: list[str]):
        from vllm import SamplingParams as VLLMSamplingParams

        vllm_params = VLLMSamplingParams(prompt_logprobs=5, max_tokens=1, temperature=0.0)
        return self.llm.generate(prompts, vllm_params)
"""


def _line(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


BUILD_LINE, GREEDY_LINE = _line(BACKEND, "VLLMSamplingParams(**kwargs)"), _line(BACKEND, "prompt_logprobs=5")
SCRIPT = """from olmo_eval.backends.vllm import VLLMBackend
from olmo_eval.core import SamplingParams


def main():
    backend = VLLMBackend("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(max_tokens=512, temperature=0.6, {more})
    for output in backend.generate(["Question: 17 * 23?"], params):
        print(output)
{after}

if __name__ == "__main__":
    main()
"""


def tree(more: str = "top_k=20", after: str = "") -> dict[str, str]:
    return {
        "olmo_eval/__init__.py": "",
        "olmo_eval/core.py": CORE,
        "olmo_eval/backends/__init__.py": "",
        "olmo_eval/backends/vllm.py": BACKEND,
        "run_eval.py": SCRIPT.format(more=more, after=after),
    }


def test_a_greedy_method_the_script_never_calls_is_not_judged(tmp_path: Path) -> None:
    assert check(tmp_path, tree()) == []


def test_the_greedy_method_is_judged_once_the_script_calls_it(tmp_path: Path) -> None:
    found = check(tmp_path, tree(after="    print(backend.logprobs(['Question: 17 * 23?']))\n"))
    assert found == [("vllm.py", GREEDY_LINE, "RPL101"), ("vllm.py", GREEDY_LINE, "RPL102")]


def test_an_object_handed_on_may_have_any_method_called(tmp_path: Path) -> None:
    # an evaluator outside the tree gets the backend: it may ask for logprobs
    handed = "    from olmo_eval_tasks import run_tasks\n\n    run_tasks(backend)\n"
    found = check(tmp_path, tree(after=handed))
    assert found == [("vllm.py", GREEDY_LINE, "RPL101"), ("vllm.py", GREEDY_LINE, "RPL102")]


def test_a_top_k_left_out_of_the_grown_request_is_reported_at_the_request(tmp_path: Path) -> None:
    # `top_k` stays at the dataclass's None, so the key is never added: vLLM's top_k 0
    assert check(tmp_path, tree(more="top_p=0.95")) == [("vllm.py", BUILD_LINE, "RPL102")]


def test_stop_sequences_given_still_leave_top_k_out(tmp_path: Path) -> None:
    found = check(tmp_path, tree(more='top_p=0.95, stop_sequences=("\\n\\n",)'))
    assert found == [("vllm.py", BUILD_LINE, "RPL102")]


def test_a_test_left_undecided_keeps_the_request_open(tmp_path: Path) -> None:
    # stop sequences from run time: the reader does not say which keys the request ends up with
    assert check(tmp_path, tree(more="stop_sequences=tuple(load_stops())")) == []


def test_a_top_k_the_script_sets_is_clean_however_stop_is_given(tmp_path: Path) -> None:
    assert check(tmp_path, tree(more='top_k=20, stop_sequences=("\\n\\n",)')) == []
