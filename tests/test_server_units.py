"""`replaylint server` without a client: LSP positions of replaylint's spans (columns in UTF-16
code units, or UTF-8 bytes when the client asks; lines ended as LSP ends them; a byte-order mark
the editor keeps counted), and the message when the `server` extra is not installed."""

from __future__ import annotations

import subprocess
import sys

import pytest

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
