"""The prefilter's one-pass first look (`frontends.triggers`): every file `relevant` reads holds
one of its words, so turning away a file without them loses nothing; with Hyperscan the answers
are those of the word-by-word path, and a run of a few files does not import it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from replaylint import frontends
from replaylint.frontends import triggers
from tests.test_prefilter import _corpus


@pytest.fixture
def fresh_triggers():
    yield
    triggers._scanner, triggers._seen = None, 0


def _cases() -> list[tuple[str, bytes]]:
    cases = [("yaml", b"services:\n  server:\n    image: vllm/vllm-openai\n    env_file: .env\n")]  # the mask may be in .env
    for path, text in _corpus():
        data = text.encode("utf-8", "surrogateescape")
        kind = frontends.kind_for(path, data[:256])
        cases.append((kind, data))
        # the same file without each word: the one-pass look must then agree with the slow one
        cases += [(kind, data.replace(word, b"xx")) for word in triggers.WORDS if word in data]
    return cases


def test_every_file_the_prefilter_reads_holds_one_of_the_words(fresh_triggers) -> None:
    triggers.use_hyperscan(False)
    cases = _cases()
    read = [(kind, data) for kind, data in cases if frontends.relevant(kind, data)]
    assert len(read) > 200
    assert [data[:80] for kind, data in read if not any(word in data for word in triggers.WORDS)] == []


def test_every_python_file_the_prefilter_reads_holds_one_of_the_python_words(fresh_triggers) -> None:
    triggers.use_hyperscan(False)
    cases = _cases() + [("python", data) for kind, data in _cases() if kind != "python"]  # any text read as Python
    read = [data for kind, data in cases if kind == "python" and frontends.relevant(kind, data)]
    assert len(read) > 100
    assert set(triggers.PYTHON_WORDS) <= set(triggers.WORDS)
    assert [data[:80] for data in read if not any(word in data for word in triggers.PYTHON_WORDS)] == []


def test_hyperscan_answers_as_the_word_by_word_path(fresh_triggers) -> None:
    pytest.importorskip("hyperscan")
    cases = _cases() + [("yaml", b"\xff\xfe" + "return_sampling_mask: true\n".encode("utf-16-le"))]
    cases += [("python", data) for kind, data in cases if kind != "python"]  # the Python pass on every other text too
    triggers.use_hyperscan(False)
    slow = [frontends.relevant(kind, data) for kind, data in cases]
    triggers.use_hyperscan(True)
    assert triggers._scanner, "hyperscan is installed but did not load"
    assert [frontends.relevant(kind, data) for kind, data in cases] == slow
    assert True in slow and False in slow


def test_a_run_of_a_few_files_does_not_import_hyperscan() -> None:
    script = (
        "import sys\nfrom replaylint import frontends\n"
        "for _ in range(20): frontends.relevant('shell', b'vllm serve m --return-sampling-mask\\n')\n"
        "print('hyperscan' in sys.modules)"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "False"
