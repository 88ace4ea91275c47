"""What round 57's twinkle cases (tests/data/python_flow/h57_twinkle_*) made the value flow follow so far:
a library's own `SamplingParams` dataclass whose `to_vllm()` builds vLLM's, behind an
`if isinstance(sampling_params, dict): sampling_params = SamplingParams(**sampling_params)` (a record
of the tree that derives from nothing outside it is no `dict`); engine keywords kept by
`valid_args = inspect.signature(AsyncEngineArgs).parameters.keys()` (a field every release declares
passes; another name may or may not); an engine method's `if self.max_model_len is not None:` (the
object's construction decides it, read where the object is made); and the engine's class imported
inside a method of a module a package re-exports (`from .sampler import Sampler` in `__init__.py`)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main

PARAMS = """from dataclasses import dataclass
from typing import Optional


@dataclass
class SamplingParams:
    max_tokens: Optional[int] = None
    temperature: float = 1.0
    top_k: int = -1

    def to_vllm(self, **kwargs):
        from vllm import SamplingParams as VLLMSamplingParams

        kwargs = {"temperature": self.temperature, **kwargs}
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        if self.top_k > 0:
            kwargs["top_k"] = self.top_k
        vllm_params = VLLMSamplingParams(**kwargs)
        return vllm_params
"""

ENGINE = """import asyncio
import inspect

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

from params import SamplingParams


class Engine:
    def __init__(self, model_id):
        self.model_id = model_id
        self.engine = self._create_engine()

    def _create_engine(self):
        engine_config = {"model": self.model_id, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
        engine_config.update(EXTRA)
        FILTER
        return AsyncLLM.from_vllm_config(vllm_config=engine_args.create_engine_config())

    async def sample(self, prompt_token_ids, sampling_params):
        if isinstance(sampling_params, dict):
            sampling_params = SamplingParams(**sampling_params)
        vllm_params = sampling_params.to_vllm()
        async for output in self.engine.generate(prompt=prompt_token_ids, sampling_params=vllm_params, request_id="0"):
            last = output
        return last


engine = Engine("Qwen/Qwen2.5-0.5B-Instruct")
asyncio.run(engine.sample([1, 2, 3], sampling_params=SamplingParams(REQUEST)))
"""

SIGNATURE_FILTER = """valid_args = inspect.signature(AsyncEngineArgs).parameters.keys()
        filtered = {k: v for k, v in engine_config.items() if k in valid_args}
        engine_args = AsyncEngineArgs(**filtered)"""


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


def engine(request: str, extra: str = "{}", filtered: bool = True) -> dict[str, str]:
    made = SIGNATURE_FILTER if filtered else "engine_args = AsyncEngineArgs(**engine_config)"
    text = ENGINE.replace("REQUEST", request).replace("EXTRA", extra).replace("FILTER", made)
    return {"params.py": PARAMS, "engine.py": text}


def test_the_dataclass_default_left_out_is_vllms_top_k_at_the_vllm_call(tmp_path: Path) -> None:
    # `top_k=-1` is not passed (`if self.top_k > 0`): vLLM's own default decides, where vLLM's params are made
    assert check(tmp_path, engine("temperature=0.7")) == [("params.py", 19, "RPL102")]


def test_a_top_k_given_keeps_the_request_clean(tmp_path: Path) -> None:
    assert check(tmp_path, engine("temperature=0.7, top_k=20")) == []


def test_a_greedy_request_of_the_library_params_is_reported_where_it_is_written(tmp_path: Path) -> None:
    assert check(tmp_path, engine("temperature=0.0, top_k=20")) == [("engine.py", 33, "RPL101")]


def test_the_request_is_read_without_the_signature_filter_too(tmp_path: Path) -> None:
    assert check(tmp_path, engine("temperature=0.7", filtered=False)) == [("params.py", 19, "RPL102")]


def test_fields_every_release_declares_pass_the_signature_filter(tmp_path: Path) -> None:
    extra = '{"seed": 42, "max_num_seqs": 256, "dtype": "auto", "enable_log_requests": False}'
    assert check(tmp_path, engine("temperature=0.7", extra=extra)) == [("params.py", 19, "RPL102")]


def test_a_name_that_may_pass_the_signature_filter_cannot_give_the_request_a_top_k(tmp_path: Path) -> None:
    # `sampling_seed` may be a field of the release run or not: either way it sets no default top_k
    assert check(tmp_path, engine("temperature=0.7", extra='{"sampling_seed": 3}')) == [("params.py", 19, "RPL102")]


def test_a_generation_config_passed_through_the_filter_keeps_the_request_open(tmp_path: Path) -> None:
    # the model's generation config may set top_k: whatever the filter keeps from outside stays open
    assert check(tmp_path, engine("temperature=0.7", extra="load_overrides()")) == []


def test_a_record_deriving_from_a_library_class_may_be_a_mapping(tmp_path: Path) -> None:
    # `class SamplingParams(Mapping)`: `isinstance(params, dict)` is not decided here
    files = engine("temperature=0.7")
    files["params.py"] = files["params.py"].replace("class SamplingParams:", "class SamplingParams(Mapping):")
    files["params.py"] = files["params.py"].replace(
        "from typing import Optional", "from collections.abc import Mapping\nfrom typing import Optional"
    )
    assert check(tmp_path, files) == []


SAMPLER = """import asyncio


class Sampler:
    def __init__(self, model_id, engine_args=None):
        from .engine import Engine

        engine_kwargs = engine_args.copy() if engine_args else {}
        self.engine = Engine(model_id=model_id, **engine_kwargs)
"""

PACKAGE_ENGINE = """from typing import Optional


class Engine:
    def __init__(self, model_id: str, *, max_model_len: Optional[int] = None, **kwargs):
        self.model_id = model_id
        self.max_model_len = max_model_len
        self.engine_kwargs = kwargs or {}
        self.engine = self._create_engine()

    def _create_engine(self):
        from vllm.engine.arg_utils import AsyncEngineArgs
        from vllm.v1.engine.async_llm import AsyncLLM

        engine_config = {"model": self.model_id}
        if self.max_model_len is not None:
            engine_config["max_model_len"] = self.max_model_len
        engine_config.update(self.engine_kwargs)
        return AsyncLLM.from_engine_args(AsyncEngineArgs(**engine_config))
"""

SCRIPT = """from pkg import Sampler

sampler = Sampler("Qwen/Qwen2.5-0.5B-Instruct", engine_args={"max_model_len": 2048, "return_sampling_mask": True, MODE})
"""


def package(mode: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "from .sampler import Sampler\n",
        "pkg/sampler.py": SAMPLER,
        "pkg/engine.py": PACKAGE_ENGINE,
        "cookbook/run.py": SCRIPT.replace("MODE", mode),
    }


def test_engine_args_reach_an_engine_imported_in_a_method_of_a_re_exported_class(tmp_path: Path) -> None:
    assert check(tmp_path, package('"logprobs_mode": "raw_logits"')) == [("run.py", 3, "RPL003")]


def test_the_processed_mode_beside_the_mask_keeps_the_package_clean(tmp_path: Path) -> None:
    assert check(tmp_path, package('"logprobs_mode": "processed_logprobs"')) == []
