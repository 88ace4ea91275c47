"""TOML files read by path (`tomllib.load(f)` of `with open(PATH, "rb") as f`, `tomli`, the `toml`
package): the tables and keys become nested mappings, each key written where the file writes it
(a table by its header, `[model.hf_overrides]`), so a finding points there. The file is read by
`toml_document`, with Python's `tomllib` (the `tomli` backport below 3.11).

What stays open: a file that does not parse; arrays of tables (`[[env]]`) are values without
places of their own."""

from __future__ import annotations

from typing import Any

from ....model import Setting
from ....source import SourceFile
from .facts import NOTHING, Entry, Kwargs, Val

TOML_LOADERS = frozenset(("tomllib.load", "tomllib.loads", "tomli.load", "tomli.loads", "toml.load", "toml.loads"))


def read_toml(reader, path: str) -> Val:
    """The mapping of the TOML file at `path`, a dependency of the result."""
    from ....toml_document import TomlError, read

    text = reader.tree.context.read_text(path)
    if text is None:
        return NOTHING
    try:
        document = read(SourceFile(path, text))
    except (TomlError, ValueError):
        return NOTHING
    from .dicts import as_val

    return as_val(_table(document, document.data, ()))


def _table(document, table: dict[str, Any], path: tuple[str, ...]) -> Kwargs:
    found = Kwargs()
    for name, value in table.items():
        inner = (*path, name)
        nested = _table(document, value, inner) if isinstance(value, dict) else None
        keys = {key: item.setting for key, item in nested.entries.items()} if nested is not None else {}
        span = document.nearest(*inner)
        spelt = document.text(span) if document.span(*inner) is not None else name
        setting = Setting(name, value, span, spelt, document.value_span(*inner), keys)
        found.entries[name] = Entry(setting, ref=nested)
    return found
