"""`replaylint server` without a client: LSP positions of replaylint's spans (columns in UTF-16
code units, or UTF-8 bytes when the client asks; lines ended as LSP ends them; a byte-order mark
the editor keeps counted), the message when the `server` extra is not installed, and a worker
process on its own."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import time

import pytest

from replaylint.server.analysis import HEADER, Check, Workspace
from replaylint.server.handshake import frame, initialize_result
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
    hide_pygls = "import sys; sys.modules['pygls'] = None; from replaylint.cli.main import main; raise SystemExit(main(['server']))"
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


def _capabilities_from_pygls(client: dict) -> dict:
    """pygls's own answer to `initialize` for this server (what the handshake stands in for)."""
    from lsprotocol import types

    from replaylint.server.protocol import build

    protocol = build().protocol
    params = protocol._converter.structure({"processId": None, "rootUri": None, "capabilities": client}, types.InitializeParams)
    steps = protocol.lsp_initialize(params)
    handler, arguments, _ = next(steps)
    handler(*arguments)
    with pytest.raises(StopIteration) as done:
        steps.send(None)
    return protocol._converter.unstructure(done.value.value)


def _without_false(value: object) -> object:
    """`false` and an absent capability mean the same (pygls writes `willSave: false` when asked)."""
    if isinstance(value, dict):
        return {key: _without_false(item) for key, item in value.items() if item is not False}
    return value


@pytest.mark.parametrize(
    "client",
    [
        {},
        {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
        {"general": {"positionEncodings": ["utf-32"]}},
        {"general": {"positionEncodings": ["x-unknown", "utf-8"]}},
        {
            "textDocument": {"synchronization": {"willSave": True, "willSaveWaitUntil": True, "didSave": True}},
            "workspace": {
                "workspaceFolders": True,
                "fileOperations": {"didCreate": True},
                "didChangeWatchedFiles": {"dynamicRegistration": True},
            },
        },
    ],
)
def test_the_early_initialize_answer_is_the_one_pygls_gives(client: dict):
    early = initialize_result({"processId": None, "capabilities": client})
    assert _without_false(early) == _without_false(_capabilities_from_pygls(client))


def test_the_server_answers_initialize_before_loading_pygls_and_pygls_still_reads_it(tmp_path):
    # the client offers UTF-8 columns: pygls, which reads `initialize` again, must count in them
    (tmp_path / ".git").mkdir()
    uri = (tmp_path / "serve.sh").as_uri()
    initialize = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {"general": {"positionEncodings": ["utf-8"]}}}
    opened = {
        "textDocument": {
            "uri": uri,
            "languageId": "shellscript",
            "version": 1,
            "text": "#!/bin/sh\nvllm serve é --return-sampling-mask --enable-scale-out\n",
        }
    }
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": opened},
    ]
    with subprocess.Popen(
        [sys.executable, "-m", "replaylint", "server"], cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as server:
        server.stdin.write(b"".join(frame(message) for message in messages))  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]
        answers = [_read(server.stdout) for _ in range(2)]
        while answers[-1].get("method") != "textDocument/publishDiagnostics":
            answers.append(_read(server.stdout))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]
        while _read(server.stdout).get("id") != 2:
            pass
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))  # type: ignore[union-attr]
        server.stdin.close()  # type: ignore[union-attr]
        assert server.wait(timeout=30) == 0
    replies = [answer for answer in answers if answer.get("id") == 1]
    assert len(replies) == 1 and replies[0]["result"]["capabilities"]["positionEncoding"] == "utf-8"
    diagnostics = answers[-1]["params"]["diagnostics"]
    assert [d["code"] for d in diagnostics] == ["RPL003"]
    assert diagnostics[0]["range"]["start"] == {"line": 1, "character": len("vllm serve é ".encode())}


def _read(stream) -> dict:
    length = None
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    assert length is not None, "the server ended"
    return json.loads(stream.read(length))


def test_a_worker_warms_up_while_idle_and_answers_a_job_sent_during_its_warm_up(tmp_path):
    (tmp_path / ".git").mkdir()
    path = str(tmp_path / "train.py")
    job = Check(
        Workspace((str(tmp_path),), {path: "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--return-sampling-mask'])\n"}), path
    )
    command = "import sys; import replaylint.server.analysis as analysis; analysis.serve(); print(sorted(sys.modules), file=sys.stderr)"
    with subprocess.Popen([sys.executable, "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as worker:
        reply = _ask(worker, job)  # sent at once: answered after at most one sample
        assert [f.code for f in reply.value.findings] == ["RPL003", "RPL301"]
        worker.stdin.close()  # type: ignore[union-attr]
        assert worker.wait(timeout=30) == 0
    with subprocess.Popen([sys.executable, "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as idle:
        time.sleep(4)  # idle: every sample checked, on a loaded machine too
        reply = _ask(idle, job)
        idle.stdin.close()  # type: ignore[union-attr]
        loaded = idle.stderr.read().decode()  # type: ignore[union-attr]
    assert [f.code for f in reply.value.findings] == ["RPL003", "RPL301"]
    for frontend in ("'libcst'", "'replaylint.frontends.shell'", "'yaml'", "'replaylint.frontends.dockerfile'"):
        assert frontend in loaded
