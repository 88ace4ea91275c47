"""Python frontend: CPython's parser decides what libcst must read (`python_focus`), then libcst
reads it (`python_cst`). A file whose statements start nothing is decided without libcst, which
is imported only for the first file that needs it (it costs a process 0.2 s)."""

from __future__ import annotations

from ..model import Edit, Fix, Launch
from ..source import ExtractContext, NeedsHeavyParser, SourceFile
from .python_focus import focus


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    focused = context.prepared if context.prepared is not None else focus(source.text)
    if focused is None:
        return []
    if context.light:
        raise NeedsHeavyParser(focused)
    from . import python_cst

    return python_cst.extract_focused(source, focused, context)


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    from . import python_cst

    return python_cst.render(launch, fix, source)


def parses(text: str) -> bool:
    from . import python_cst

    return python_cst.parses(text)
