"""A module that turns the mask on only inside `pytest.mark.parametrize(...)` (vLLM's own tests parametrize a
server's argument list with `--return-sampling-mask`) gives no value another module could start a replay
engine with: no reading follows pytest's parameters, so the modules it imports are not flowed for it (that
reading cost vLLM's tests/entrypoints/scale_out/.../test_serving_tokens.py 100 ms of a cold scan). A mask
anywhere else in the module still sends its importers' engines through the flow."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.frontends.python.flow.importers import mask_names, mask_outside_parametrize
from replaylint.frontends.python.flow.module import parse
from replaylint.source import SourceFile

_PARAMETRIZED = """import pytest

from tests.utils import RemoteServer


@pytest.mark.parametrize(
    "server_args",
    [["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]],
)
def test_generate(server_args):
    RemoteServer("Qwen/Qwen3-0.6B", server_args)
"""


def _module(text: str):
    return parse(SourceFile("tests/test_serving.py", text), "")


@pytest.mark.parametrize(
    "text",
    [
        _PARAMETRIZED,
        _PARAMETRIZED.replace("import pytest", "from pytest import mark").replace("@pytest.mark", "@mark"),
        '@pytest.mark.parametrize("kw", [{"return_sampling_mask": True}])\ndef test_x(kw):\n    start(**kw)\n',
    ],
)
def test_a_mask_only_in_pytest_parameters_reaches_no_other_module(text: str) -> None:
    assert not mask_outside_parametrize(_module(text))


@pytest.mark.parametrize(
    "text",
    [
        _PARAMETRIZED + 'REPLAY = {"return_sampling_mask": True}\n',  # a dict another module may spread
        _PARAMETRIZED + '\nSERVER_ARGS = ["--return-sampling-mask"]\n',
        '@serve.deployment(ray_actor_options={"return_sampling_mask": True})\nclass Server:\n    pass\n',  # not pytest's
        'ARGS = {"return_sampling_mask": True}\n',  # no parametrize at all
    ],
)
def test_a_mask_outside_pytest_parameters_is_still_followed(text: str) -> None:
    assert mask_outside_parametrize(_module(text))


def test_a_settings_module_with_a_parametrized_test_still_finds_its_engine(tmp_path: Path) -> None:
    package = tmp_path / "myproj"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text(
        "import pytest\n\n"
        'VLLM_ARGS = {"return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}\n\n\n'
        '@pytest.mark.parametrize("flag", ["--return-sampling-mask"])\n'
        "def test_flag(flag):\n"
        "    assert flag\n"
    )
    (package / "train.py").write_text("from vllm import LLM\n\nfrom myproj.settings import VLLM_ARGS\n\nllm = LLM('m', **VLLM_ARGS)\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(package / "settings.py")])
    found = [(Path(item["filename"]).name, item["location"]["row"], item["code"]) for item in json.loads(out.getvalue())]
    assert found == [("settings.py", 3, "RPL003")]


_TEST_FUNCTION = (
    "def test_sampling_mask(scheduler):\n"
    "    scheduler.return_sampling_mask = True\n"
    "    assert scheduler.schedule()\n\n\n"
    "def replay_args():\n"
    '    return {"return_sampling_mask": True}\n'
)


@pytest.mark.parametrize(
    ("path", "carriers"),
    [
        # pytest runs `test*` functions of its modules: what they return reaches no other module (vLLM's
        # tests/v1/core/test_scheduler.py, whose importers' search cost a cold scan 60 ms); a helper beside them does
        ("tests/test_scheduler.py", {"replay_args"}),
        ("tests/scheduler_test.py", {"replay_args"}),
        # in a module pytest does not collect, a function named test... is a function like any other
        ("myproj/testing.py", {"test_sampling_mask", "replay_args"}),
    ],
)
def test_a_pytest_test_function_carries_the_mask_to_no_other_module(path: str, carriers: set[str]) -> None:
    assert mask_names(parse(SourceFile(path, _TEST_FUNCTION), "")) == carriers
