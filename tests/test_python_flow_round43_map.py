"""What held-out round 43 (tests/data/python_flow/h43_numina_kaggle_solution_*) made the value flow follow: a
function handed to a data library's `map` with `fn_kwargs` (Hugging Face datasets' `ds.map(fn, batched=True,
fn_kwargs={...})`, Ray Data's `ds.map_batches(fn, fn_kwargs=...)`) is called with each row or batch and then
`**fn_kwargs`, so the engine and the request `fn_kwargs` names reach the function's `generate`. The row is not known,
and a map without `fn_kwargs` (or with one this reader cannot spell out) keeps the request open."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "solve.py").write_text(text)
    return sorted((f["location"]["row"], f["code"]) for f in run(tmp_path))


SCRIPT = (
    "from datasets import Dataset\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def generate_batched(samples, vllm, sampling_params):\n"
    "    outputs = vllm.generate(samples['text'], sampling_params)\n"
    "    samples['text'] = [o.outputs[0].text for o in outputs]\n"
    "    return samples\n"
    "\n"
    "\n"
    "def main(temperature):\n"
    "    vllm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    params = SamplingParams(temperature=temperature, REQUEST)\n"
    "    samples = Dataset.from_list([{'text': 'hi'}] * 8)\n"
    "    samples = MAP\n"
    "    return samples\n"
    "\n"
    "\n"
    "main(TEMPERATURE)\n"
)
HF_MAP = "samples.map(generate_batched, batched=True, fn_kwargs={'vllm': vllm, 'sampling_params': params})"


def script(request: str = "max_tokens=64", map_call: str = HF_MAP, temperature: str = "0.8") -> str:
    return SCRIPT.replace("REQUEST", request).replace("MAP", map_call).replace("TEMPERATURE", temperature)


def test_a_request_handed_through_datasets_map_fn_kwargs_without_top_k_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, script()) == [(13, "RPL102")]


def test_the_same_request_with_top_k_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, script(request="top_k=20")) == []


def test_a_greedy_temperature_from_the_caller_of_the_mapping_function_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, script(request="top_k=20", temperature="0.0")) == [(19, "RPL101")]


@pytest.mark.parametrize(
    "map_call",
    [
        # `dict(...)` spelling, the function as `function=`, and an index passed before the keywords
        "samples.map(function=generate_batched, fn_kwargs=dict(vllm=vllm, sampling_params=params))",
        "samples.map(generate_batched, with_indices=True, fn_kwargs={'vllm': vllm, 'sampling_params': params})",
        # Ray Data's spelling
        "samples.map_batches(generate_batched, batch_size=16, fn_kwargs={'vllm': vllm, 'sampling_params': params})",
    ],
)
def test_other_real_spellings_of_a_mapped_call_are_followed(tmp_path: Path, map_call: str) -> None:
    text = script(map_call=map_call).replace("(samples, vllm", "(samples, *rest, vllm")
    assert check(tmp_path, text) == [(13, "RPL102")]


@pytest.mark.parametrize(
    "map_call",
    [
        # no `fn_kwargs`: the library passes only the row, so the function's engine and request are not known
        "samples.map(generate_batched, batched=True)",
        # a `fn_kwargs` dict built elsewhere: what it holds is not spelt out here
        "samples.map(generate_batched, fn_kwargs=KWARGS)",
        # another function is mapped
        "samples.map(len, fn_kwargs={'vllm': vllm, 'sampling_params': params})",
    ],
)
def test_maps_that_do_not_spell_out_the_request_stay_silent(tmp_path: Path, map_call: str) -> None:
    text = script(map_call=map_call).replace("from datasets", "import os\nKWARGS = dict(os.environ)\nfrom datasets")
    assert [code for _, code in check(tmp_path, text)] == []


def test_a_request_mapped_to_an_engine_without_replay_stays_silent(tmp_path: Path) -> None:
    text = script().replace(", return_sampling_mask=True, logprobs_mode='processed_logprobs'", "")
    assert check(tmp_path, text) == []


ENGINE_IN_MAP = (
    "from datasets import load_dataset\n"
    "from vllm import LLM\n"
    "\n"
    "\n"
    "def score(batch, engine_kwargs):\n"
    "    llm = LLM(model='m', **engine_kwargs)\n"
    "    return {'out': [o.outputs[0].text for o in llm.generate(batch['text'])]}\n"
    "\n"
    "\n"
    "ds = load_dataset('json', data_files='data.jsonl', split='train')\n"
    "ds = ds.map(score, batched=True, fn_kwargs={'engine_kwargs': {'return_sampling_mask': True, 'logprobs_mode': MODE}})\n"
)


def test_an_engine_built_in_the_mapped_function_reads_fn_kwargs(tmp_path: Path) -> None:
    assert check(tmp_path, ENGINE_IN_MAP.replace("MODE", "'raw_logprobs'")) == [(11, "RPL003")]
    assert check(tmp_path, ENGINE_IN_MAP.replace("MODE", "'processed_logprobs'")) == []
