"""`initialize` answered before pygls is loaded: the editor waits for this answer, and pygls
with lsprotocol's types takes a few hundred milliseconds to import.

The first message is read with a hand-written framing and answered with the capabilities pygls
would compute for this server (tests/test_server_units.py compares them); pygls then reads the
same message again (`Replayed`), so its state (client capabilities, position encoding, workspace
folders) is what it would have been, and its own answer is dropped (`Answered`). Messages the
client sends meanwhile wait in the pipe. Anything but an `initialize` request is left to pygls.
Stdlib only, so nothing heavy is imported before the answer is sent.
"""

from __future__ import annotations

import json
from typing import BinaryIO

from .. import __version__

# What pygls's `ServerCapabilitiesBuilder` builds for the features `protocol.build` registers.
CODE_ACTION_KINDS = ("quickfix", "source.fixAll.replaylint")
ENCODINGS = ("utf-8", "utf-16", "utf-32")  # those pygls supports


def capabilities(encoding: str) -> dict:
    return {
        "positionEncoding": encoding,
        "textDocumentSync": {"openClose": True, "change": 1, "save": True},
        "codeActionProvider": {"codeActionKinds": list(CODE_ACTION_KINDS)},
        "executeCommandProvider": {"commands": []},
        "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}},
    }


def position_encoding(client_capabilities: object) -> str:
    """The client's first encoding that pygls supports, else UTF-16 (pygls's choice)."""
    general = client_capabilities.get("general") if isinstance(client_capabilities, dict) else None
    offered = general.get("positionEncodings") if isinstance(general, dict) else None
    return next((encoding for encoding in offered if encoding in ENCODINGS), "utf-16") if isinstance(offered, list) else "utf-16"


def initialize_result(params: object) -> dict:
    client = params.get("capabilities") if isinstance(params, dict) else None
    return {"capabilities": capabilities(position_encoding(client)), "serverInfo": {"name": "replaylint", "version": __version__}}


def read_message(stream: BinaryIO) -> tuple[bytes, dict | None]:
    """The raw bytes of the next message (headers and body), and its body when it is a JSON object."""
    raw, length = b"", None
    while True:
        line = stream.readline()
        raw += line
        if not line or line in (b"\r\n", b"\n"):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            length = int(value)
    if length is None or not line:
        return raw, None
    body = stream.read(length)
    raw += body
    try:
        message = json.loads(body)
    except ValueError:
        return raw, None
    return raw, message if isinstance(message, dict) else None


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def answer_initialize(stdin: BinaryIO, stdout: BinaryIO) -> tuple[bytes, object]:
    """Read the first message and answer it when it is `initialize`: the message's bytes, and
    the id answered (None when it was left to pygls)."""
    raw, message = read_message(stdin)
    if message is None or message.get("method") != "initialize" or not isinstance(message.get("id"), (int, str)):
        return raw, None
    stdout.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": initialize_result(message.get("params"))}))
    stdout.flush()
    return raw, message["id"]


class Replayed:
    """A binary stream that gives `first` again, then what `rest` gives."""

    def __init__(self, first: bytes, rest: BinaryIO) -> None:
        self.pending = first
        self.rest = rest

    def readline(self) -> bytes:
        if b"\n" in self.pending:
            line, _, self.pending = self.pending.partition(b"\n")
            return line + b"\n"
        line, self.pending = self.pending + self.rest.readline(), b""
        return line

    def read(self, size: int) -> bytes:
        taken, self.pending = self.pending[:size], self.pending[size:]
        return taken + (self.rest.read(size - len(taken)) if len(taken) < size else b"")


class Answered:
    """pygls's output, less its answer to the request `answered` (sent already)."""

    def __init__(self, stream: BinaryIO, answered: object) -> None:
        self.stream = stream
        self.answered = answered

    def write(self, data: bytes) -> None:
        if self.answered is not None and _answers(data, self.answered):
            self.answered = None
            return
        self.stream.write(data)

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


def _answers(data: bytes, request_id: object) -> bool:
    """Whether one framed message (pygls writes each in one piece) answers `request_id`."""
    _, _, body = data.partition(b"\r\n\r\n")
    try:
        message = json.loads(body)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("id") == request_id and "method" not in message
