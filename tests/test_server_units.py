"""`replaylint server` without a client: LSP positions of replaylint's spans (columns in UTF-16
code units, or UTF-8 bytes when the client asks; lines ended as LSP ends them; a byte-order mark
the editor keeps counted), the message when the `server` extra is not installed, and a worker
process on its own."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from replaylint.server.analysis import HEADER, Check, Workspace
from replaylint.server.positions import EditorText


@pytest.mark.parametrize(
    ("text", "line", "col", "utf16", "utf8"),
    [
        ("ab😀cd\n", 1, 4, 4, 6),  # after the astral character: two UTF-16 units, four bytes
        ("\ufeffab\n", 1, 2, 2, 4),  # a byte-order mark the editor kept counts on the first line
        ("a\r\nbé\rc", 2, 3, 2, 3),  # CRLF and a lone CR end lines, as LSP says
        ("a\x0cb\u2028c\n", 1, 5, 4, 6),  # form feed and LINE SEPARATOR do not
    ],
)
def test_positions_in_each_encoding(text: str, line: int, col: int, utf16: int, utf8: int):
    for encoding, expected in (("utf-16", utf16), ("utf-8", utf8)):
        lines = EditorText(text, encoding)
        position = lines.position(line, col)
        assert (position.line, position.character) == (line - 1, expected)
        assert lines.offset(position) == lines.index.offset(line, col)


def test_without_the_server_extra_the_command_says_what_to_install():
    hide_pygls = "import sys; sys.modules['pygls'] = None; from replaylint.cli import main; raise SystemExit(main(['server']))"
    completed = subprocess.run([sys.executable, "-c", hide_pygls], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert completed.returncode == 2
    assert completed.stderr == "replaylint: error: the language server needs pygls: pip install 'replaylint[server]'\n"


def _ask(worker: subprocess.Popen, job: object) -> object:
    data = pickle.dumps((job, 60, {}))  # (the job, its time budget, each file's budget)
    worker.stdin.write(HEADER.pack(len(data)) + data)  # type: ignore[union-attr]
    worker.stdin.flush()  # type: ignore[union-attr]
    header = worker.stdout.read(HEADER.size)  # type: ignore[union-attr]
    assert len(header) == HEADER.size, "the worker ended without a reply"
    return pickle.loads(worker.stdout.read(HEADER.unpack(header)[0]))  # type: ignore[union-attr]


def test_a_worker_answers_checks_and_exits_once_it_holds_too_much(tmp_path):
    # the worker the server starts, with its memory threshold lowered to nothing
    (tmp_path / ".git").mkdir()
    path = str(tmp_path / "serve.sh")
    job = Check(Workspace((str(tmp_path),), {path: "vllm serve m --return-sampling-mask --enable-scale-out\n"}), path)
    command = "import replaylint.server.analysis as analysis; analysis.RETIRE_ABOVE_BYTES = {}; analysis.serve()"

    with subprocess.Popen([sys.executable, "-c", command.format(1 << 40)], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as worker:
        first, second = _ask(worker, job), _ask(worker, job)
        assert [f.code for f in first.value.findings] == [f.code for f in second.value.findings] == ["RPL003"]
        assert not second.retiring
        worker.stdin.close()  # the server went away: the worker ends
        assert worker.wait(timeout=10) == 0

    with subprocess.Popen([sys.executable, "-c", command.format(0)], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as worker:
        reply = _ask(worker, job)
        assert reply.retiring and [f.code for f in reply.value.findings] == ["RPL003"]
        assert worker.wait(timeout=10) == 0  # its memory back to the system
