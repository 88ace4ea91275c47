"""What held-out round 45's olmo-eval async case (tests/data/python_flow/h45_olmo_eval_async_backend_top_k_disabled)
taught: an engine attribute set in a `try` that imports the newer engine and again in its `except ImportError:`
fallback is the `try`'s; a request sent in a function nested in a method is read at that method's calls of it;
and the params a class keeps in a dict on `self` (`self._pending[rid] = (prompt, params)`) are read back through
`.items()` or `.values()` in a comprehension, each as the storing method's callers made it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

BACKEND = """import asyncio

from vllm import SamplingParams


class Backend:
    def __init__(self, model, **engine_kwargs):
        try:
            from vllm.engine.arg_utils import AsyncEngineArgs
            from vllm.v1.engine.async_llm import AsyncLLM

            self.engine = AsyncLLM.from_engine_args(AsyncEngineArgs(model=model, **engine_kwargs))
        {fallback}:
            from vllm import AsyncEngineArgs
            from vllm.engine.async_llm_engine import AsyncLLMEngine

            self.engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model=model, **engine_kwargs))
        self._pending = {{}}

    async def add_request(self, request_id, prompt, top_k):
        params = SamplingParams(temperature=0.7, top_k=top_k)
        self._pending[request_id] = {stored}

    async def stream_results(self):
        async def process(request_id, prompt, params):
            async for output in self.engine.generate(prompt, params, request_id):
                if output.finished:
                    return output

        tasks = [asyncio.create_task(process({call})) for {target} in self._pending.{read}()]
        self._pending.clear()
        return await asyncio.gather(*tasks)
"""
RUN = """import asyncio

from backend import Backend


async def main():
    backend = Backend("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    await backend.add_request("r0", "Question: 2 + 2?", {top_k})
    await backend.stream_results()


asyncio.run(main())
"""
ITEMS = {"stored": "(prompt, params)", "call": "rid, prompt, params", "target": "rid, (prompt, params)", "read": "items"}
VALUES = {"stored": "params", "call": '"r", "p", params', "target": "params", "read": "values"}


def tree(top_k: str, fallback: str = "except ImportError", spelling: dict[str, str] = ITEMS) -> dict[str, str]:
    return {"backend.py": BACKEND.format(fallback=fallback, **spelling), "run.py": RUN.format(top_k=top_k)}


@pytest.mark.parametrize("spelling", [ITEMS, VALUES])
def test_params_kept_in_a_dict_and_sent_by_a_nested_function_are_judged(tmp_path: Path, spelling: dict[str, str]) -> None:
    assert check(tmp_path, tree("0", spelling=spelling)) == [("run.py", 8, "RPL102")]


@pytest.mark.parametrize("spelling", [ITEMS, VALUES])
def test_a_positive_top_k_kept_and_sent_the_same_way_is_clean(tmp_path: Path, spelling: dict[str, str]) -> None:
    assert check(tmp_path, tree("20", spelling=spelling)) == []


def test_an_engine_set_again_in_a_handler_that_is_no_import_fallback_stays_unknown(tmp_path: Path) -> None:
    # `except RuntimeError:` may run where the imports succeed: which engine the requests reach is not known
    assert check(tmp_path, tree("0", fallback="except RuntimeError")) == []


def test_the_olmo_eval_spelling_reports_the_dataclass_default_the_literal_stands_in_for(tmp_path: Path) -> None:
    # `top_k=params.top_k if params.top_k else -1` with the caller's params leaving `top_k` at its None
    files = tree("0")
    files["backend.py"] = files["backend.py"].replace(
        "params = SamplingParams(temperature=0.7, top_k=top_k)",
        "params = SamplingParams(temperature=0.7, top_k=top_k.top_k if top_k.top_k else -1)",
    )
    files["config.py"] = "from dataclasses import dataclass\n\n\n@dataclass\nclass Knobs:\n    top_k: int | None = None\n"
    files["run.py"] = files["run.py"].replace("from backend import Backend", "from backend import Backend\nfrom config import Knobs")
    assert check(tmp_path, {**files, "run.py": files["run.py"].replace(", 0)", ", Knobs())")}) == [("config.py", 6, "RPL102")]
    assert check(tmp_path, {**files, "run.py": files["run.py"].replace(", 0)", ", Knobs(top_k=40))")}) == []
