"""What held-out round 58 (h58_delphi_offline_client_no_top_k) made the value flow follow: an engine's request method
handed to something that calls it later (delphi's `Offline.process_func`: `loop.run_in_executor(None,
partial(self.client.generate, prompts, sampling_params=sampling_params))`; also `run_in_executor(None, llm.generate,
...)`, `asyncio.to_thread(...)`, `executor.submit(...)`) sends the params it is given. A hand-off that leaves the params
to where it is called is not read as a request without them; params built and never sent stay silent."""

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


def check(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "client.py").write_text(text)
    return sorted((f["location"]["row"], f["code"]) for f in run(tmp_path))


CLIENT = """import asyncio
from functools import partial

from vllm import LLM, SamplingParams


class Offline:
    def __init__(self, model: str, number_tokens_to_generate: int = 500):
        self.client = LLM(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.sampling_params = SamplingParams(max_tokens=number_tokens_to_generate)

    async def process_func(self, prompts, kwargs):
        temperature = 1.0
        for kwarg in kwargs:
            if "temperature" in kwarg:
                temperature = kwarg["temperature"]
        sampling_params = SamplingParams(max_tokens=self.sampling_params.max_tokens, temperature=temperature)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None,
            partial(
                self.client.generate,
                prompts,
                sampling_params=sampling_params,
                use_tqdm=False,
            ),
        )

    async def run(self, prompts):
        return await self.process_func(prompts, [{}])


if __name__ == "__main__":
    asyncio.run(Offline("Qwen/Qwen2.5-0.5B-Instruct").run(["Hello"]))
"""


def test_params_sent_through_a_partial_run_in_an_executor_are_reported_and_the_unsent_ones_are_not(tmp_path: Path) -> None:
    assert check(tmp_path, CLIENT) == [(17, "RPL102")]


def test_the_same_client_with_top_k_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, CLIENT.replace("temperature=temperature)", "temperature=temperature, top_k=20)")) == []


HANDED = """import asyncio
import concurrent.futures
import functools

import vllm

llm = vllm.LLM(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs", generation_config="vllm")
params = vllm.SamplingParams(temperature=0.8{top_k})


async def main(prompts):
    loop = asyncio.get_event_loop()
    {send}


asyncio.run(main(["Hello"]))
"""

SENDS = [
    "await loop.run_in_executor(None, llm.generate, prompts, params)",
    "await asyncio.to_thread(llm.generate, prompts, sampling_params=params, use_tqdm=False)",
    "concurrent.futures.ThreadPoolExecutor(1).submit(llm.generate, prompts, params).result()",
    "await loop.run_in_executor(None, functools.partial(llm.generate, prompts, params))",
]


def test_each_hand_off_sends_its_params(tmp_path: Path) -> None:
    for send in SENDS:
        found = check(tmp_path, HANDED.format(send=send, top_k=""))
        assert found == [(8, "RPL102")], send


def test_each_hand_off_with_top_k_is_clean(tmp_path: Path) -> None:
    for send in SENDS:
        assert check(tmp_path, HANDED.format(send=send, top_k=", top_k=20")) == [], send


def test_a_partial_whose_params_come_where_it_is_called_is_not_read_as_a_request_without_params(tmp_path: Path) -> None:
    # `generation_config="vllm"`: a request sent with no params would get vLLM's own (top_k 0) and be reported
    send = "generate = functools.partial(llm.generate, use_tqdm=False)\n    generate(prompts, params)"
    assert check(tmp_path, HANDED.format(send=send, top_k=", top_k=20")) == []


def test_another_objects_generate_handed_off_is_not_a_request(tmp_path: Path) -> None:
    text = HANDED.format(send="await asyncio.to_thread(model.generate, prompts, params)", top_k="")
    text = text.replace("asyncio.run(", "model = object()\nasyncio.run(")
    assert check(tmp_path, text) == []
