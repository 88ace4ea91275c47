"""`on_use`: a regular expression compiled the first time it is used, for the module-level ones
that most runs never use (a package's version grammar, a JSON or TOML reader, images' tags):
each costs its compile (up to a millisecond) at import, before the forked reader starts.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

# What a compiled expression offers: set on the stand-in once it is compiled, so that a use
# after the first finds the compiled expression's own method (no `__getattr__` again).
_ATTRIBUTES = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _OnUse:
    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # (a copy's lookups before `__init__`)
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for each in _ATTRIBUTES:
            setattr(self, each, getattr(compiled, each))
        return getattr(compiled, name)


def on_use(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, done when a method or attribute is first asked for."""
    return cast("re.Pattern[AnyStr]", _OnUse(pattern, flags))
