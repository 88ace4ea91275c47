"""Files CPython's parser settles without libcst (frontends/python/verdict.py): the verdict must
never change a finding, only skip work."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.frontends.python.focus import focus
from replaylint.frontends.python.verdict import Settled
from replaylint.rules import RULES
from replaylint.vllm.releases import parse_release

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
focus_module = importlib.import_module("replaylint.frontends.python.focus")  # the package re-exports the function
# The verdict reads no release; these are where findings without replay differ: before the mask's name
# (0.27.1), its first release (0.28.0), and Model Runner V1 removed (0.34.0: the runner variable alone is refused).
RELEASES = ("0.27.1", "0.28.0", "0.34.0")

SETTLED = {
    "a parameter passed on (vLLM's own LLM.__init__)": (
        "from vllm import EngineArgs\n"
        "def build(model, return_sampling_mask: bool = True, **kwargs):\n"
        "    return EngineArgs(model=model, return_sampling_mask=return_sampling_mask, **kwargs)\n"
    ),
    "no mask, the runner variable in a test": (
        "from vllm import LLM\n"
        "def test_v1(monkeypatch):\n"
        '    monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", "0")\n'
        '    LLM("m", enforce_eager=True)\n'
    ),
    "the mask off": 'from vllm import LLM\nLLM("m", return_sampling_mask=False)  # VLLM_USE_V2_MODEL_RUNNER\n',
    "a dict literal spread": (
        "from vllm import LLM\n"
        "def test_it():\n"
        '    kwargs = {"model": "m", "gpu_memory_utilization": 0.1}\n'
        "    return LLM(**kwargs)  # VLLM_USE_V2_MODEL_RUNNER\n"
    ),
    "the runner variable set to 1 and removed": (
        "import os\nfrom vllm import LLM\n"
        'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n'
        'llm = LLM("m")\n'
        'os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)\n'
    ),
    "a value the libcst pass cannot read": (
        "import os\nfrom vllm import LLM\n"
        'original = os.environ.get("VLLM_USE_V2_MODEL_RUNNER", "0")\n'
        'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = original\n'
        'LLM("m")\n'
    ),
    "columns after non-ASCII text, a parenthesised value, a keyword over two lines": (
        "from vllm import LLM\n"
        "def build(flag, größe):\n"
        '    return (LLM("modèle", return_sampling_mask=(flag)), LLM("m", return_sampling_mask=\n        flag))\n'
    ),
    "python -c in a subprocess": (
        "import subprocess, sys\nfrom vllm import LLM\n"
        'def test_env():\n    subprocess.run([sys.executable, "-c", "import vllm  # VLLM_USE_V2_MODEL_RUNNER"], check=True)\n'
        '    LLM("m")\n'
    ),
}

NOT_SETTLED = {
    "the mask on": 'from vllm import LLM\nLLM("m", return_sampling_mask=True)\n',
    "the mask from a module constant": 'from vllm import LLM\nMASK = True\nLLM("m", return_sampling_mask=MASK)\n',
    "the mask as a string": 'from vllm import LLM\nLLM("m", return_sampling_mask="yes")\n',
    "the mask as None (pydantic refuses it)": 'from vllm import LLM\nLLM("m", return_sampling_mask=None)\n',
    "the pre-release name": 'from vllm import LLM\nLLM("m", enable_return_sampling_mask=False)\n',
    "a dict with the mask": (
        'from vllm import LLM\nOPTS = {"model": "m", "return_sampling_mask": True}\nLLM(**OPTS)  # VLLM_USE_V2_MODEL_RUNNER\n'
    ),
    "a dict bound twice": ('from vllm import LLM\ndef f(x):\n    kw = {"model": "m"}\n    kw = x\n    return LLM(**kw)  # sampling_mask\n'),
    "a dict of the class body": (
        "from vllm import LLM\n"
        'OPTS = {"model": "m"}\n'
        'class Engine:\n    OPTS = {"return_sampling_mask": True}\n    llm = LLM(**OPTS)  # sampling_mask\n'
    ),
    "the runner variable set to 0": 'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\nLLM("m")\n',
    "setdefault to 0": 'import os\nfrom vllm import LLM\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\nLLM("m")\n',
    "a vLLM server in a subprocess": ('import subprocess\nsubprocess.run(["vllm", "serve", "m", "--return-sampling-mask"])\n'),
    "a command line from a name": ('import subprocess\nCMD = ["vllm", "serve", "m"]\nsubprocess.run(CMD + ["--return-sampling-mask"])\n'),
    "a shell": 'import subprocess\nsubprocess.run("vllm serve m --return-sampling-mask", shell=True)\n',
    "python -m vllm": (
        'import subprocess, sys\nsubprocess.run([sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--return-sampling-mask"])\n'
    ),
}


@pytest.mark.parametrize("text", SETTLED.values(), ids=SETTLED.keys())
def test_launches_that_ask_for_no_replay_skip_libcst(text: str) -> None:
    assert isinstance(focus(text), Settled)


@pytest.mark.parametrize("text", NOT_SETTLED.values(), ids=NOT_SETTLED.keys())
def test_launches_that_may_ask_for_replay_go_to_libcst(text: str) -> None:
    assert isinstance(focus(text), str)


def _python_sources() -> list[tuple[str, str]]:
    sources = [(f"snippet {name}", text) for name, text in {**SETTLED, **NOT_SETTLED}.items()]
    for path in sorted(FIXTURES.glob("*/*/**/*.py")):
        if "realworld" not in path.parts:
            sources.append((str(path.relative_to(FIXTURES)), path.read_text(encoding="utf-8", errors="replace")))
    for rule in RULES:
        for number, example in enumerate((*rule.VALID, *rule.INVALID)):
            if example.filename.endswith(".py"):
                sources.append((f"{rule.code} example {number}", example.source))
    return sources


def _findings(text: str, release: str) -> list[tuple]:
    checker = Checker(Config(target_vllm=parse_release(release), target_vllm_forced=True))
    result = checker.check_bytes("launch.py", text.encode())
    return sorted((f.code, f.span.start, f.span.end, f.message) for f in result.findings)


def test_the_verdict_changes_no_finding(monkeypatch, tmp_path: Path) -> None:
    """Every Python file of the golden cases and rule examples, at several releases: the same
    findings with the verdict as with every kept file given to libcst. Each is checked as
    `launch.py` of an empty folder: from this checkout's root, the files around it (this
    repository's) would be read for importers, most of the test's time and nothing it is about."""
    sources = _python_sources()
    monkeypatch.chdir(tmp_path)
    with_verdict = {(name, release): _findings(text, release) for name, text in sources for release in RELEASES}
    monkeypatch.setattr(focus_module, "settled", lambda *args: None)
    without = {(name, release): _findings(text, release) for name, text in sources for release in RELEASES}
    differing = [key for key in with_verdict if with_verdict[key] != without[key]]
    assert len(sources) > 80 and not differing, differing
