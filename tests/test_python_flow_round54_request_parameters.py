"""What held-out rounds 54 and 56 (h54_rankllm_diver_reranker_top_k_default_minus_one,
h56_dataflow_pipeline_greedy_temperature) made the value flow follow into a request's parameters:
a serving class whose `__init__` hands its keywords to a setup method it calls once on `self`
(DataFlow's `self.load_model(vllm_temperature=vllm_temperature, ...)`, which stores
`self.vllm_temperature` for `SamplingParams(temperature=self.vllm_temperature)`), read with the
object's construction; and a wrapper of the engine kept on `self` by another class of the tree
(rank_llm's reranker: `self._vllm_handler = VllmHandler(...)`, then
`self._vllm_handler.generate_output_async(..., top_k=self._top_k)`), its request read with the
keeper's construction, found from a script of the same namespace package (`src/rank_llm/scripts/`,
no `__init__.py`). Silent when another method calls the setup method again, and when what is kept
is not an object of the wrapper the tree made."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in run(tmp_path))


def row(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


SERVING = """import os


class LocalServing:
    def __init__(self, model: str = None, vllm_temperature: float = 0.7, vllm_top_k: int = 40):
        self.load_model(model=model, vllm_temperature=vllm_temperature, vllm_top_k=vllm_top_k)
        self.ready = False

    def load_model(self, model: str = None, vllm_temperature: float = 0.7, vllm_top_k: int = 40):
        self.model = model
        self.vllm_temperature = vllm_temperature
        self.vllm_top_k = vllm_top_k

    def start_serving(self):
        from vllm import LLM, SamplingParams

        self.sampling_params = SamplingParams(temperature=self.vllm_temperature, top_k=self.vllm_top_k)
        self.llm = LLM(model=self.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.ready = True

    def generate_from_input(self, prompts):
        if not self.ready:
            self.start_serving()
        return self.llm.generate(prompts, self.sampling_params)
"""

PIPELINE = """from serving.local_serving import LocalServing


class Pipeline:
    def __init__(self):
        self.llm_serving = LocalServing(model="Qwen/Qwen2.5-0.5B-Instruct", {given})

    def forward(self):
        return self.llm_serving.generate_from_input(["What is a prime?"])


if __name__ == "__main__":
    Pipeline().forward()
"""


def _serving_tree(serving: str, given: str) -> dict[str, str]:
    return {
        "serving/__init__.py": "",
        "serving/local_serving.py": serving,
        "pipeline.py": PIPELINE.replace("{given}", given),
    }


def test_a_keyword_init_hands_to_its_setup_method_reaches_the_request(tmp_path: Path) -> None:
    files = _serving_tree(SERVING, "vllm_temperature=0.0")
    assert check(tmp_path, files) == [("pipeline.py", row(files["pipeline.py"], "vllm_temperature=0.0"), "RPL101")]


def test_the_setup_methods_stored_defaults_are_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _serving_tree(SERVING, "vllm_top_k=20")) == []


def test_a_default_of_init_handed_on_positionally_is_the_programs(tmp_path: Path) -> None:
    serving = SERVING.replace(
        "vllm_temperature: float = 0.7, vllm_top_k: int = 40):\n        self.load_model(",
        "vllm_temperature: float = 0.7, vllm_top_k: int = -1):\n        self.load_model(",
    )
    serving = serving.replace(
        "self.load_model(model=model, vllm_temperature=vllm_temperature, vllm_top_k=vllm_top_k)",
        "self.load_model(model, vllm_temperature, vllm_top_k)",
    )
    files = _serving_tree(serving, "vllm_temperature=0.5")
    assert check(tmp_path, files) == [("local_serving.py", row(serving, "vllm_top_k: int = -1"), "RPL102")]


def test_a_setup_method_another_method_calls_again_stays_silent(tmp_path: Path) -> None:
    serving = SERVING.replace(
        "    def start_serving(self):",
        "    def reload(self, temperature: float):\n        self.load_model(model=self.model, vllm_temperature=temperature)\n\n    def start_serving(self):",
    )
    assert check(tmp_path, _serving_tree(serving, "vllm_temperature=0.0")) == []


HANDLER = """import uuid

import vllm


class VllmHandler:
    def __init__(self, model: str, **kwargs):
        self._engine = vllm.AsyncLLMEngine.from_engine_args(vllm.AsyncEngineArgs(model=model, **kwargs))

    async def generate_output_async(self, prompt, max_tokens: int, temperature: float, top_p: float = 1.0, top_k: int = 0):
        sampling_params = vllm.SamplingParams(max_tokens=max_tokens, temperature=temperature, top_p=top_p, top_k=top_k)
        text = ""
        async for output in self._engine.generate(prompt, sampling_params, str(uuid.uuid4())):
            text = output.outputs[0].text
        return text
"""

RERANKER = """import asyncio

from rank.rerank.vllm_handler import VllmHandler


class PointwiseReranker:
    def __init__(self, model_path: str = "m", temperature: float = 0.3, top_k: int = {top_k}):
        self._vllm_handler = {held}
        self._temperature = temperature
        self._top_k = top_k

    async def _score_one(self, prompt: str) -> str:
        return await self._vllm_handler.generate_output_async(prompt, max_tokens=100, temperature=self._temperature, top_k=self._top_k)

    def rerank_batch(self, prompts):
        async def _all():
            return await asyncio.gather(*[self._score_one(p) for p in prompts])

        return asyncio.run(_all())
"""

KEPT = 'VllmHandler(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")'

SCRIPT = """import argparse

from rank.rerank.pointwise.reranker import PointwiseReranker


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", default="m")
    args = parser.parse_args()
    print(PointwiseReranker(model_path=args.model_path).rerank_batch(["q"]))


if __name__ == "__main__":
    main()
"""


def _reranker_tree(top_k: str, held: str = KEPT) -> dict[str, str]:
    # a namespace package in the `src` layout (no `__init__.py`): the script imports it from beside
    return {
        "src/rank/rerank/vllm_handler.py": HANDLER,
        "src/rank/rerank/pointwise/reranker.py": RERANKER.replace("{top_k}", top_k).replace("{held}", held),
        "src/rank/scripts/run.py": SCRIPT,
    }


def test_a_kept_wrappers_request_reads_the_keepers_default(tmp_path: Path) -> None:
    files = _reranker_tree("-1")
    text = files["src/rank/rerank/pointwise/reranker.py"]
    assert check(tmp_path, files) == [("reranker.py", row(text, "top_k: int = -1"), "RPL102")]


def test_a_kept_wrapper_given_a_positive_top_k_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _reranker_tree("20")) == []


def test_a_kept_object_the_tree_did_not_make_of_the_wrapper_stays_silent(tmp_path: Path) -> None:
    assert check(tmp_path, _reranker_tree("-1", held="make_handler(model_path)")) == []
