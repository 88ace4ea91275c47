"""A word that is the text of a JSON file of the tree, read by command substitution:
`--speculative-config "$(cat configs/spec.json)"`, or the same held by a variable first
(`SPEC="$(< configs/spec.json)"`, then `"$SPEC"`). bash hands the command the file's text (its
trailing newlines cut), so the option gets the file's object, and each key is placed in the file.

Only a quoted substitution that is the whole word and names one plain relative path is read (an
unquoted one is split into words at the JSON's blanks); the path is looked for as a `--config`
file is (`vllm_config.config_candidates`: after the script's own `cd "$(dirname "$0")/.."`, from
there). A file that is not found, is not a JSON object, or is too large leaves the word unknown.
"""

from __future__ import annotations

from ...frameworks.engine_mappings import nested_settings
from ...json_document import JsonError, placed, values
from ...model import Span
from ...regexes import on_use
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import Token
from .values import Field, Hole

_READ_LIMIT = 1_000_000
_PATH = r"""(?:(?P<plain>[\w./+@-]+)|'(?P<single>[^']+)'|"(?P<double>[^"$`\\]+)")"""
# `$(cat FILE)`, `$(< FILE)`, `` `cat FILE` ``
_READS_FILE = on_use(rf"\$\(\s*(?:cat\s+(?:--\s+)?|<\s*){_PATH}\s*\)|`\s*cat\s+{_PATH.replace('?P<', '?P<b_')}\s*`")


def file_path(raw: str) -> str | None:
    """The file `$(cat FILE)` (or its spellings) reads, when the substitution is nothing else."""
    match = _READS_FILE.fullmatch(raw.strip())
    if match is None:
        return None
    return next(text for text in match.groupdict().values() if text is not None)


def json_file_token(word: Field, span: Span, context: ExtractContext, launching_path: str) -> Token | None:
    """The token of a word that is one JSON object file's text, its keys placed in that file."""
    from ..vllm_config import config_candidates

    hole = word.chunks[0] if not word.spread and word.text is None and len(word.chunks) == 1 else None
    if not isinstance(hole, Hole) or hole.splits or hole.reparsed or hole.forwarded:
        return None
    path = file_path(hole.raw)
    if path is None or path.startswith("/"):
        return None
    for candidate in config_candidates(path, context, launching_path, hole.start):
        text = context.read_text(candidate)
        if text is None:
            continue
        return _object_token(SourceFile(candidate, text), word, span)
    return None


def _object_token(source: SourceFile, word: Field, span: Span) -> Token | None:
    if len(source.text) > _READ_LIMIT:
        return None
    try:
        data = values(source.text)
    except JsonError:
        return None
    if not isinstance(data, dict):
        return None
    document = placed(source, data)
    text = source.text.rstrip("\n")
    return Token(text, span, word.raw, keys=nested_settings(document, (), data), written=document.value_span())
