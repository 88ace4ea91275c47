"""What held-out round 12 (tests/data/python_flow/h12_*) made the value flow follow, and where
each construct stops: `os.putenv` (the C environment a child inherits, not the `os.environ` vLLM
reads in the process that builds the engine). Each stop keeps the launch open (no finding rests
on an absent or unknown setting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ENGINE = "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
SERVE = "['vllm', 'serve', 'm', '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']"

# `os.putenv`: not in `os.environ`, so not in this process's engine; in a child that inherits


@pytest.mark.parametrize(
    "head, write",
    [
        ("import os\n", "os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')"),
        ("from os import putenv\n", "putenv('VLLM_USE_V2_MODEL_RUNNER', '0')"),
        ("import os as _os\n", "_os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')"),
    ],
)
def test_putenv_before_an_engine_in_the_same_process_is_clean(tmp_path: Path, head: str, write: str) -> None:
    module_level = f"{head}from vllm import LLM\n{write}\n{ENGINE}"
    in_function = f"{head}from vllm import LLM\ndef main():\n    {write}\n    {ENGINE}"
    assert check(tmp_path, {"top.py": module_level, "func.py": in_function}) == []


def test_putenv_in_a_setup_helper_of_another_module_is_clean(tmp_path: Path) -> None:
    helper = (
        "import os\ndef prepare():\n    os.environ['TOKENIZERS_PARALLELISM'] = 'false'\n    os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n"
    )
    run = f"from vllm import LLM\nfrom env_setup import prepare\ndef main():\n    prepare()\n    {ENGINE}"
    assert check(tmp_path, {"env_setup.py": helper, "run.py": run}) == []


def test_os_environ_written_in_a_setup_helper_is_still_found(tmp_path: Path) -> None:
    helper = "import os\ndef prepare():\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    run = f"from vllm import LLM\nfrom env_setup import prepare\ndef main():\n    prepare()\n    {ENGINE}"
    assert check(tmp_path, {"env_setup.py": helper, "run.py": run}) == [("env_setup.py", 3, "RPL206")]


def test_the_engine_reads_os_environ_not_a_later_putenv(tmp_path: Path) -> None:
    # os.environ holds "0" (its write calls putenv too); putenv's "1" reaches only a child
    source = f"import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\nos.putenv('VLLM_USE_V2_MODEL_RUNNER', '1')\n{ENGINE}"
    assert check(tmp_path, {"run.py": source}) == [("run.py", 3, "RPL206")]


def test_setdefault_after_putenv_writes_os_environ(tmp_path: Path) -> None:
    # os.environ has no entry after putenv, so setdefault's "0" is the engine's
    source = (
        "import os\nfrom vllm import LLM\nos.putenv('VLLM_USE_V2_MODEL_RUNNER', '1')\n"
        f"os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')\n{ENGINE}"
    )
    assert check(tmp_path, {"run.py": source}) == [("run.py", 4, "RPL206")]


@pytest.mark.parametrize("start", ["subprocess.Popen({argv})", "subprocess.run({argv}, check=True)"])
def test_putenv_before_a_child_that_inherits_the_environment_is_found(tmp_path: Path, start: str) -> None:
    source = f"import os\nimport subprocess\ndef main():\n    os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n    {start.format(argv=SERVE)}\n"
    assert check(tmp_path, {"run.py": source}) == [("run.py", 4, "RPL206")]


@pytest.mark.parametrize(
    "env", ["os.environ.copy()", "{**os.environ, 'CUDA_VISIBLE_DEVICES': '0'}", "dict(os.environ, CUDA_VISIBLE_DEVICES='0')"]
)
def test_putenv_before_a_child_given_a_copy_of_os_environ_is_clean(tmp_path: Path, env: str) -> None:
    source = f"import os\nimport subprocess\ndef main():\n    os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n    subprocess.run({SERVE}, env={env})\n"
    assert check(tmp_path, {"run.py": source}) == []
