"""The prefilter's patterns for findings without the mask in the file, and for HTTP clients,
declared with the rules that need them (`vllm.prefilter_patterns`) and collected by
`frontends.relevant` and `frontends.may_hold_client`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from replaylint import frontends
from replaylint.frontends.triggers import PYTHON_WORDS, WORDS
from replaylint.rules import resolve
from replaylint.vllm.engine_fields import RUNNER_ENV
from replaylint.vllm.prefilter_patterns import CLIENTS, WITHOUT_MASK, client_words


def test_every_declaration_names_rules_that_exist() -> None:
    for declared in (*WITHOUT_MASK, *CLIENTS):
        assert declared.rules and all(resolve(code) for code in declared.rules), declared


def test_the_first_look_finds_every_word_a_declaration_needs() -> None:
    # `relevant` asks a declaration only of a file the first look let through
    for declared in WITHOUT_MASK:
        assert declared.word in WORDS, declared.word
        if not declared.kinds or "python" in declared.kinds:
            assert declared.word in PYTHON_WORDS, declared.word
    assert WITHOUT_MASK[0].word == RUNNER_ENV.encode()


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("shell", "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m\n", True),
        ("shell", "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m\n", False),  # 1 is no finding without the mask
        ("makefile", "serve:\n\tVLLM_USE_V2_MODEL_RUNNER=true vllm serve m\n", True),
        ("yaml", "# run `VLLM_USE_V2_MODEL_RUNNER=1` before vllm serve\n", False),  # prose
        ("python", 'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\nLLM("m")\n', True),
        ("python", 'os.environ.get("VLLM_USE_V2_MODEL_RUNNER", "0")\nLLM("m")\n', False),  # a read
        ("shell", "vllm serve m --config conf/serve.yaml\n", True),
        ("shell", "vllm serve m --config-format yaml.yaml\n", False),
        ("yaml", "services:\n  vllm:\n    env_file: .env\n", True),
        ("shell", "# env_file\nvllm serve m\n", False),  # a compose key only in compose
        ("shell", "python -m sglang.launch_server --config conf/serve.yaml\n", False),  # no vLLM named
    ],
)
def test_findings_without_the_mask_pass_the_prefilter(kind: str, text: str, expected: bool) -> None:
    assert frontends.relevant(kind, text.encode()) is expected


def test_client_words_by_kind() -> None:
    collected = client_words()
    assert set(collected) == {"python", "shell"}
    assert frontends.may_hold_client("python", b"from openai import OpenAI\nclient = OpenAI()\n")
    assert frontends.may_hold_client("shell", b"trl grpo --config grpo.yaml\n")
    assert not frontends.may_hold_client("python", b"import requests\nrequests.get(url)\n")
    assert not frontends.may_hold_client("yaml", b"openai: 1\n")


def test_the_prefilter_imports_neither_rules_nor_dataclasses() -> None:
    script = (
        "import sys\n"
        "from replaylint import frontends\n"
        "frontends.relevant('shell', b'VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --config c.yaml\\n')\n"
        "frontends.may_hold_client('python', b'import openai')\n"
        "print(sorted(name for name in ('dataclasses', 'inspect', 'replaylint.rules') if name in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
