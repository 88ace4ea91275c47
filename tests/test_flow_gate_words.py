"""The value flow's first look at a Python file's own words (`frontends.python._live_words`): it reads a file that
names the mask or the runner variable only where those words may turn the mask on or the V1 runner back. A mask
written only as `False` and a runner variable only read, removed or given `1` (vLLM's tests/v1/sample/test_logprobs.py,
whose flow cost a cold scan 55 ms for nothing) leave the file to the other looks (a config file it reads, a name it
imports); anything else, or anything unrecognised, is read as before."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.frontends.python import _live_words


@pytest.mark.parametrize(
    "text",
    [
        "LLM(model, return_sampling_mask=False)",
        'ENGINE = {"return_sampling_mask": False, "model": "m"}',
        "return_sampling_mask: bool = False",  # a config field's default
        'monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", "1")',
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '1'",
        'os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "1")',
        'runner = "v2" if os.environ.get("VLLM_USE_V2_MODEL_RUNNER") == "1" else "v1"',
        'monkeypatch.delenv("VLLM_USE_V2_MODEL_RUNNER", raising=False)',
        "use_v2 = bool(envs.VLLM_USE_V2_MODEL_RUNNER)",
    ],
)
def test_words_that_turn_nothing_on(text: str) -> None:
    assert not _live_words(text)


@pytest.mark.parametrize(
    "text",
    [
        "LLM(model, return_sampling_mask=True)",
        "LLM(model, return_sampling_mask=args.replay)",  # decided elsewhere
        'cmd = ["vllm", "serve", "m", "--return-sampling-mask"]',
        "LLM(model, return_sampling_mask=False)\nkwargs['return_sampling_mask'] = True",  # one off, one on
        'monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", "0")',
        'os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")',  # prime-rl's server.py
        'monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", env_value)',  # a value from elsewhere
        'os.system("VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m")',
        "envs.VLLM_USE_V2_MODEL_RUNNER = False",
        'if os.environ["VLLM_USE_V2_MODEL_RUNNER"] == "0":\n    pass',  # not recognised: read as before
    ],
)
def test_words_that_may_turn_something_on(text: str) -> None:
    assert _live_words(text)


def test_a_runner_variable_given_zero_beside_an_off_mask_is_still_reported(tmp_path: Path) -> None:
    (tmp_path / "run.py").write_text(
        'import os\n\nfrom vllm import LLM\n\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\nllm = LLM("m", return_sampling_mask=False)\n'
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    assert [(f["location"]["row"], f["code"]) for f in json.loads(out.getvalue())] == [(5, "RPL206")]
