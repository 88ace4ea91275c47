"""The text of a file's bytes, as the program that runs the file would decode them, and the texts
of a run's findings as the report shows them (`load_texts`)."""

from __future__ import annotations

import io
import tokenize

from .. import files
from ..records import record


@record(unsafe_hash=True)
class Decoded:
    text: str
    encoding: str
    bom: bool


# Who reads a file of each kind, for a file in an encoding that reader refuses.
_READERS = {"python": "Python", "shell": "the shell", "dockerfile": "Docker", "toml": "TOML readers"}


def decode(data: bytes, kind: str) -> Decoded:
    """Text of a file. Python honours its coding cookie and must decode (CPython refuses
    anything else); YAML and JSON must be UTF-8, or UTF-16 or UTF-32 with a byte-order mark (the
    YAML specification's encodings, which PyYAML and kubectl read, and what Python's `json.loads`
    reads from bytes); shell scripts and Dockerfiles
    may carry stray bytes in comments (bash and Docker do not care), kept as surrogates so a fix
    writes them back. A UTF-16 or UTF-32 file of another kind raises UnicodeError: its reader
    would not run it."""
    wide = files.wide_encoding(data)
    if wide is not None:
        encoding, length = wide
        if kind not in ("yaml", "json"):
            raise UnicodeError(
                f"file is {encoding[:6].upper()} encoded (it starts with a byte-order mark): {_READERS.get(kind, 'its reader')} reads UTF-8"
            )
        return Decoded(data[length:].decode(encoding), encoding, True)
    bom = data.startswith(b"\xef\xbb\xbf")
    if kind == "python":
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
        if text.startswith("\ufeff"):
            text = text[1:]
        return Decoded(text, "utf-8" if encoding == "utf-8-sig" else encoding, bom)
    body = data[3:] if bom else data
    errors = "surrogateescape" if kind in ("shell", "dockerfile") else "strict"
    return Decoded(body.decode("utf-8", errors), "utf-8", bom)


def decode_error(error: UnicodeDecodeError, data: bytes) -> tuple[str, int, int]:
    start = error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)  # decode() dropped the BOM
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, start) + 1
    col = len(data[line_start:start].decode(error.encoding, "replace")) + 1
    return f"file is not valid {error.encoding.upper().replace('-SIG', '')}: byte 0x{data[start]:02x} cannot be decoded", line, col


def text_of(data: bytes) -> str:
    """A file's text as the spans of its findings count in it."""
    try:
        return decode(data, "yaml" if files.wide_encoding(data) else "shell").text
    except (UnicodeError, LookupError):
        return data.decode("utf-8", "replace")


def load_texts(run, limit: int) -> None:
    """The texts the findings' spans (and the places they relate to) count in, decoded as the
    checks decoded them."""
    paths = dict.fromkeys(path for finding in run.findings for path in (finding.span.path, *(span.path for span in finding.related)))
    for path in paths:
        if path in run.texts:
            continue
        try:
            run.texts[path] = text_of(files.read_regular(path, limit))
        except files.Unreadable:
            continue
