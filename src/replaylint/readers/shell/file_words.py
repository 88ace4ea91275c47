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
from ...json_document import JsonDocument, JsonError, placed, values
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
    hole = word.chunks[0] if not word.spread and word.text is None and len(word.chunks) == 1 else None
    if not isinstance(hole, Hole) or hole.splits or hole.reparsed or hole.forwarded:
        return None
    path = file_path(hole.raw)
    source = tree_file(path, context, launching_path, hole.start) if path is not None else None
    found = json_object(source) if source is not None else None
    if source is None or found is None:
        return None
    data, document = found
    return Token(source.text.rstrip("\n"), span, word.raw, keys=nested_settings(document, (), data), written=document.value_span())


def tree_file(path: str, context: ExtractContext, launching_path: str, offset: int) -> SourceFile | None:
    """The file of the tree a relative path a command reads at `offset` names (as a `--config`
    file is looked for: `vllm_config.config_candidates`); None outside the tree or not found."""
    from ..vllm_config import config_candidates

    if not path or path.startswith("/"):
        return None
    for candidate in config_candidates(path, context, launching_path, offset):
        text = context.read_text(candidate)
        if text is not None:
            return SourceFile(candidate, text)
    return None


def json_object(source: SourceFile) -> tuple[dict, JsonDocument] | None:
    """A file's JSON object and its placed document; None for anything else, or a file too large."""
    if len(source.text) > _READ_LIMIT:
        return None
    try:
        data = values(source.text)
    except JsonError:
        return None
    return (data, placed(source, data)) if isinstance(data, dict) else None
