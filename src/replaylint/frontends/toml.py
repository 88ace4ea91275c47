"""TOML frontend: prime-rl configuration files (`uv run rl @ rl.toml`, `uv run inference @ inference.toml`),
and mise's tasks (`mise_tasks`: `[tasks.serve] run = "vllm serve ..."`, read by the shell interpreter).

The file is read by `toml_document` (values and the spans of their keys); prime-rl
configurations become launches (`frameworks.prime_rl`, the registry's `toml_finder`, decides from
the tables a file has), and
in other files the tables of vLLM engine arguments that turn the mask on
(`frameworks.engine_mappings`);
`pyproject.toml` never reaches this frontend (`kind_for`). A file that does not parse is
reported only when it looks like a prime-rl config. Fixes are not offered.
"""

from __future__ import annotations

import re

from ..framework_registry import toml_finders
from ..frameworks import engine_mappings
from ..model import Edit, Fix, Launch
from ..readers.host_scripts import launches_of
from ..source import ExtractContext, ParseError, SourceFile
from ..toml_document import TomlError, parses, read
from . import mise_tasks
from .mise_tasks import is_mise_config

__all__ = ["extract", "render", "parses"]

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
    if is_mise_config(source.path):
        return launches_of(mise_tasks.scripts(document), source, context, lambda text: text)
    for adapter in toml_finders():
        claimed = getattr(adapter.load(), adapter.toml_finder)(document, context.read_text)
        if claimed is not None:
            return claimed
    return engine_mappings.launches_of(document, engine_mappings.mappings_in(document.data), source.path)


def _position(message: str) -> tuple[int, int]:
    match = re.search(r"line (\d+), column (\d+)", message)
    return (int(match.group(1)), int(match.group(2))) if match else (1, 1)


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """Fixes are not written into framework configuration files."""
    return None
