"""TOML frontend: prime-rl configuration files (`uv run rl @ rl.toml`, `uv run inference @ inference.toml`).

The file is read by `toml_document` (values and the spans of their keys); prime-rl
configurations become launches (`frameworks.prime_rl` decides from the tables a file has), and
in other files the tables of vLLM engine arguments that turn the mask on
(`frameworks.engine_mappings`);
`pyproject.toml` never reaches this frontend (`kind_for`). A file that does not parse is
reported only when it looks like a prime-rl config. Fixes are not offered.
"""

from __future__ import annotations

import re
from typing import Any

from ..frameworks import engine_mappings, prime_rl
from ..model import Edit, Fix, Launch, LaunchKind, Setting
from ..source import ExtractContext, ParseError, SourceFile
from ..toml_document import TomlDocument, TomlError, parses, read

__all__ = ["extract", "render", "parses"]

_MAX_DEPTH = 16
_PRIME_RL_HINT = re.compile(r"^\s*\[\[?\s*(orchestrator|inference|vllm)\b|enable_return_sampling_mask", re.MULTILINE)


_CHARACTERS_PER_UNIT = 2  # tomllib and the position scanner read about two characters a microsecond


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    context.budget.charge(len(source.text) // _CHARACTERS_PER_UNIT)  # neither can be interrupted
    try:
        document = read(source)
    except TomlError as error:
        if not _PRIME_RL_HINT.search(source.text):
            return []
        line, col = _position(str(error))
        raise ParseError(f"TOML syntax error: {str(error).split(' (at ')[0]}", line, col) from None
    if prime_rl.kind_of(document) is not None:
        return prime_rl.launches(document)
    return _engine_mappings(document)


def _engine_mappings(document: TomlDocument) -> list[Launch]:
    """Tables (the file's top level too) of vLLM engine arguments that turn the mask on
    (`frameworks.engine_mappings`), open-ended: a `[engine]` table a launcher of one's own reads."""
    launches = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), document.data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, list) and len(path) < _MAX_DEPTH:
            stack.extend(((*path, index), item) for index, item in enumerate(value))
        if not isinstance(value, dict) or len(path) >= _MAX_DEPTH:
            continue
        stack.extend(((*path, key), item) for key, item in value.items())
        if not engine_mappings.writes_mask_on(value) or not engine_mappings.looks_like_engine(value):
            continue
        settings = {}
        for key, item in value.items():
            span = document.nearest(*path, key)
            settings[key.replace("-", "_")] = Setting(
                key.replace("-", "_"), item, span, document.text(span), document.value_span(*path, key)
            )
        launches.append(
            Launch(
                LaunchKind.PYTHON_CALL,
                document.nearest(*path) if path else settings[engine_mappings.MASK].span,
                settings,
                open_ended=True,
                open_reason=engine_mappings.OPEN_REASON,
                label=f"engine arguments in {'.'.join(map(str, path)) or document.source.path}",
            )
        )
    return launches


def _position(message: str) -> tuple[int, int]:
    match = re.search(r"line (\d+), column (\d+)", message)
    return (int(match.group(1)), int(match.group(2))) if match else (1, 1)


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """Fixes are not written into framework configuration files."""
    return None
